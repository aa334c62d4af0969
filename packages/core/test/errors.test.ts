/**
 * `@tessera/core/errors`: the Auth.js v5 classes with the same names and `type`
 * values, the same constructor shapes, and `kind` deciding the landing page.
 */
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, test } from "vitest"
import * as errors from "@tessera/core/errors"
import { AuthError, CredentialsSignin, SignInError } from "@tessera/core/errors"

/** Class name -> kind, as in Auth.js v5 (`type` equals the class name). */
const expected: Record<string, "signIn" | "error"> = {
  AccessDenied: "error",
  AccountNotLinked: "signIn",
  AdapterError: "error",
  CallbackRouteError: "error",
  CredentialsSignin: "signIn",
  DuplicateConditionalUI: "error",
  EmailSignInError: "signIn",
  ErrorPageLoop: "error",
  EventError: "error",
  ExperimentalFeatureNotEnabled: "error",
  InvalidCallbackUrl: "error",
  InvalidCheck: "error",
  InvalidEndpoints: "error",
  InvalidProvider: "error",
  InvalidProviderType: "error",
  JWTSessionError: "error",
  MissingAdapter: "error",
  MissingAdapterMethods: "error",
  MissingAuthorize: "error",
  MissingCSRF: "signIn",
  MissingSecret: "error",
  MissingWebAuthnAutocomplete: "error",
  OAuthAccountNotLinked: "signIn",
  OAuthCallbackError: "signIn",
  OAuthProfileParseError: "error",
  OAuthSignInError: "signIn",
  RefreshTokenError: "error",
  SessionTokenError: "error",
  SignOutError: "error",
  UnknownAction: "error",
  UnsupportedStrategy: "error",
  UntrustedHost: "error",
  Verification: "error",
  WebAuthnVerificationError: "error",
}

type ErrorClass = new (message?: unknown, options?: unknown) => AuthError

describe("error classes", () => {
  test.each(Object.entries(expected))("%s: name, type and kind as in Auth.js", (name, kind) => {
    const Class = (
      errors as unknown as Record<string, ErrorClass & { type: string; kind: string }>
    )[name]
    expect(Class, `${name} is exported`).toBeTypeOf("function")
    const error = new Class!("something happened")
    expect(error).toBeInstanceOf(AuthError)
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe(name)
    expect(error.type).toBe(name)
    expect(error.kind).toBe(kind)
    expect(Class!.type).toBe(name)
    expect(Class!.kind).toBe(kind)
    expect(error.message).toBe("something happened")
    expect(error.stack).toContain(name)
    if (kind === "signIn") expect(error).toBeInstanceOf(SignInError)
  })

  test("AuthError itself", () => {
    const error = new AuthError("base")
    expect([error.name, error.type, error.kind]).toEqual(["AuthError", "AuthError", "error"])
  })

  test("constructor: (message, options), (options), (error), () ", () => {
    const root = new TypeError("root cause")
    const a = new errors.AdapterError("with options", { cause: { err: root, method: "getUser" } })
    expect(a.message).toBe("with options")
    expect(a.cause).toEqual({ err: root, method: "getUser" })

    const b = new errors.AdapterError({ cause: { err: root } })
    expect(b.message).toBe("")
    expect(b.cause?.err).toBe(root)

    const c = new errors.AdapterError(root)
    expect(c.cause?.err).toBe(root)

    const d = new errors.AdapterError()
    expect(d.message).toBe("")
    expect(d.cause).toBeUndefined()
  })

  test("CredentialsSignin has code 'credentials'; a subclass sets its own", () => {
    expect(new CredentialsSignin().code).toBe("credentials")
    class InvalidLogin extends CredentialsSignin {
      override code = "invalid_login"
    }
    const error = new InvalidLogin("bad")
    expect(error.code).toBe("invalid_login")
    expect(error.type).toBe("CredentialsSignin")
    expect(error.kind).toBe("signIn")
    expect(error.name).toBe("InvalidLogin")
    expect(error).toBeInstanceOf(CredentialsSignin)
  })

  const tesseraAdditions = [
    "DuplicateProviderId",
    "EmailDeliveryError",
    "InvalidConfiguration",
    "InvalidRequest",
    "InvalidSecret",
    "InvalidTwoFactorCode",
    "OAuthProviderError",
    "RateLimited",
    "RecentSignInRequired",
    "TwoFactorExpired",
  ]

  test.each([
    ["EmailDeliveryError", "EmailSignInError"],
    ["OAuthProviderError", "OAuthCallbackError"],
  ] as const)("%s is a %s with its own type (same page, a server fault)", (name, parent) => {
    const error = new errors[name]("x")
    expect(error).toBeInstanceOf(errors[parent])
    expect(error.type).toBe(name)
    expect(errors.publicErrorOf(error)).toEqual(errors.publicErrorOf(new errors[parent]("x")))
    expect(errors.isClientError(error)).toBe(false)
    expect(errors.isClientError(new errors[parent]("x"))).toBe(true)
  })

  test.each([
    ["RateLimited", "RateLimited"],
    ["InvalidTwoFactorCode", "TwoFactor"],
    ["TwoFactorExpired", "TwoFactorExpired"],
    ["RecentSignInRequired", "SessionRequired"],
  ] as const)("%s: a sign-in error the client caused, shown as error=%s", (name, value) => {
    const error = new errors[name]("x")
    expect(error).toBeInstanceOf(SignInError)
    expect(error.type).toBe(name)
    expect(errors.publicErrorOf(error)).toEqual({ page: "signIn", value })
    expect(errors.isClientError(error)).toBe(true)
  })

  test("every exported error class is in the table (no class without a test)", () => {
    const exported = Object.entries(errors)
      .filter(
        ([, v]) =>
          typeof v === "function" && (v as { prototype: unknown }).prototype instanceof AuthError,
      )
      .map(([k]) => k)
      .filter((k) => k !== "SignInError")
    expect(exported.sort()).toEqual([...Object.keys(expected), ...tesseraAdditions].sort())
  })
})

describe("classes nothing throws", () => {
  const src = fileURLToPath(new URL("../src/", import.meta.url))
  const errorsSource = readFileSync(`${src}errors.ts`, "utf8")
  const elsewhere = readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && file !== "errors.ts")
    .map((file) => readFileSync(`${src}${file}`, "utf8"))
    .join("\n")

  /** The doc comment right above `export class <name>`. */
  function docOf(name: string): string {
    const at = errorsSource.indexOf(`export class ${name} `)
    const start = errorsSource.lastIndexOf("/**", at)
    return errorsSource.slice(start, at)
  }

  test("are marked as kept for Auth.js compatibility (and are still exported)", () => {
    const classes = [...errorsSource.matchAll(/^export class (\w+) extends (\w+)/gm)]
    const parents = new Set(classes.map(([, , parent]) => parent))
    const unthrown = classes
      .map(([, name]) => name!)
      // A base class is thrown through its subclasses.
      .filter((name) => !parents.has(name))
      .filter((name) => !new RegExp(`\\b${name}\\b`).test(elsewhere))
    expect(unthrown.length).toBeGreaterThan(0)
    for (const name of unthrown) {
      expect(docOf(name), `${name}: nothing throws it`).toMatch(/Kept for Auth\.js compatibility/)
      expect(errors).toHaveProperty(name)
    }
  })
})
