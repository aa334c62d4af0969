/**
 * The conformance suites, built on vitest: call one at the top level of a test file.
 * They are the only modules of `@tessera/testing` that import vitest (an optional
 * peer dependency), so the package's main entry loads without it.
 *
 * @example
 * ```ts
 * import { runAdapterTests } from "@tessera/testing/suites"
 * runAdapterTests({ adapter, db })
 * ```
 * @module
 */
export { runAdapterTests } from "./adapter-tests.js"
export type { AdapterTestDb, AdapterTestOptions } from "./adapter-tests.js"
export { runIntegrationTests } from "./integration-tests.js"
export { expectOwnSessionsUnderLoad } from "./concurrent-sessions.js"
export { runRateLimitStoreTests } from "./rate-limit-store-tests.js"
export type { RateLimitStoreTestOptions, CrossProcessOptions } from "./rate-limit-store-tests.js"
export { runProviderTests, runOAuthProviderTests, PROVIDER_TEST_ORIGIN } from "./provider-tests.js"
export type {
  OAuthProviderTestOptions,
  ProviderTestIdentity,
  ProviderTestHandle,
  ProviderSignIn,
  ProviderSignInOptions,
  ExpectedUser,
  TokenResponseContext,
  ResourceContext,
} from "./provider-tests.js"
export { runEmailProviderTests } from "./email-provider-tests.js"
export { runSmtpProviderTests } from "./smtp-provider-tests.js"
export type { SmtpProviderTestOptions } from "./smtp-provider-tests.js"
export { runCredentialsProviderTests } from "./credentials-provider-tests.js"
export type { CredentialsProviderTestOptions } from "./credentials-provider-tests.js"
export { runWebAuthnProviderTests } from "./webauthn-provider-tests.js"
export type { WebAuthnProviderTestOptions } from "./webauthn-provider-tests.js"
export type {
  EmailProviderTestOptions,
  EmailProviderTestHandle,
  MailApiRequest,
} from "./email-provider-tests.js"
