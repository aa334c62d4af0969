/**
 * Issue 10's type-level claims, checked against the built declarations an app gets:
 * "a union type of all error types to switch on, as jose does", one class per failure with
 * its literal `type`, and provider factories typed by their options.
 */
import { describe, expectTypeOf, test } from "vitest"
import {
  AccessDenied,
  type AuthError,
  type CredentialsSignin,
  MissingCSRF,
  OAuthCallbackError,
  UntrustedHost,
  type ErrorType,
} from "@tessera/core/errors"
import Credentials from "@tessera/core/providers/credentials"
import GitHub from "@tessera/core/providers/github"

describe("ErrorType", () => {
  test("is a union of string literals holding Auth.js's error types", () => {
    expectTypeOf<string>().not.toExtend<ErrorType>()
    expectTypeOf<
      | "AccessDenied"
      | "AdapterError"
      | "CallbackRouteError"
      | "CredentialsSignin"
      | "MissingCSRF"
      | "OAuthAccountNotLinked"
      | "OAuthCallbackError"
      | "UntrustedHost"
      | "Verification"
    >().toExtend<ErrorType>()
  })

  test("an error's `type` is one of them, so a switch over it can be exhaustive", () => {
    expectTypeOf<AuthError["type"]>().toEqualTypeOf<ErrorType>()
    expectTypeOf<CredentialsSignin["type"]>().toExtend<ErrorType>()
    const describe = (error: AuthError): string => {
      switch (error.type) {
        case "CredentialsSignin":
          return "wrong credentials"
        default: {
          const rest: Exclude<ErrorType, "CredentialsSignin"> = error.type
          return rest
        }
      }
    }
    expectTypeOf(describe).returns.toEqualTypeOf<string>()
  })

  test("each class is an AuthError, with `kind` naming the page it leads to", () => {
    for (const Class of [AccessDenied, MissingCSRF, OAuthCallbackError, UntrustedHost]) {
      expectTypeOf(new Class()).toExtend<AuthError>()
    }
    expectTypeOf<AuthError["kind"]>().toExtend<"signIn" | "error">()
  })
})

describe("provider factories are typed by their options", () => {
  test("a wrong option type is a compile error", () => {
    GitHub({ clientId: "id", clientSecret: "secret" })
    // @ts-expect-error clientId is a string
    GitHub({ clientId: 1 })
  })

  test("Credentials' authorize sees the declared fields", () => {
    Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize(credentials) {
        expectTypeOf(credentials).toHaveProperty("username")
        expectTypeOf(credentials).toHaveProperty("password")
        return null
      },
    })
  })
})
