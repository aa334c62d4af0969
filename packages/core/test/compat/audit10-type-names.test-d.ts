/**
 * Type tests (against the built declarations): type names `@auth/core/providers/*` exports
 * that an app's type imports name, imports changed to `@tessera/*`, resolve.
 */
import { expectTypeOf, test } from "vitest"
import type {
  AppProvider,
  CredentialsProviderId,
  EmailProviderId,
  OAuthEndpointType,
} from "@tessera/core/providers"
import type { AppleNonConformUser } from "@tessera/core/providers/apple"
import type { OAuthNetSuiteOptions } from "@tessera/core/providers/netsuite"
import {
  DEFAULT_WEBAUTHN_TIMEOUT,
  type GetUserInfo,
  type WebAuthnGetUserInfoOptions,
} from "@tessera/core/providers/webauthn"

test("provider type names of Auth.js resolve", () => {
  expectTypeOf<CredentialsProviderId>().toEqualTypeOf<"credentials">()
  expectTypeOf<"nodemailer">().toMatchTypeOf<EmailProviderId>()
  expectTypeOf<"resend">().toMatchTypeOf<EmailProviderId>()
  expectTypeOf<OAuthEndpointType>().toEqualTypeOf<"authorization" | "token" | "userinfo">()
  expectTypeOf<AppProvider>().toHaveProperty("signinUrl")
  expectTypeOf<AppProvider>().toHaveProperty("callbackUrl")
  expectTypeOf<AppleNonConformUser>().toHaveProperty("name")
  expectTypeOf<OAuthNetSuiteOptions>().toHaveProperty("accountID")
  expectTypeOf(DEFAULT_WEBAUTHN_TIMEOUT).toEqualTypeOf<number>()
  expectTypeOf<Parameters<GetUserInfo>[0]>().toEqualTypeOf<WebAuthnGetUserInfoOptions>()
})
