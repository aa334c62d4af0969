/**
 * Test helpers for Tessera that need no test runner: an in-memory adapter, records for
 * adapter tests, a local OpenID provider, a mail sink, a throwaway PostgreSQL and Redis,
 * an HTTP browser with a cookie jar. The vitest conformance suites are in
 * `@tessera/testing/suites`; this entry never loads vitest at import
 * (`runAdapterTests` and `runProviderTests`, here too, load it when a test file calls them).
 *
 * @module
 */
export {
  MemoryAdapter,
  createMemoryStore,
  accountKey,
  recordKey,
  tokenKey,
  UniqueConstraintError,
} from "./memory-adapter.js"
export type { MemoryStore } from "./memory-adapter.js"
export { testUser, testAccount, testAuthenticator } from "./fixtures.js"
export { runAdapterTests } from "./adapter-suite-entry.js"
export type { AdapterTestDb, AdapterTestOptions } from "./adapter-tests.js"
export { runProviderTests } from "./provider-suite-entry.js"
export type {
  OAuthProviderTestOptions,
  ProviderTestIdentity,
  ProviderTestHandle,
  ProviderSignIn,
  ProviderSignInOptions,
} from "./provider-tests.js"
export type { EmailProviderTestOptions, EmailProviderTestHandle } from "./email-provider-tests.js"
export type { SmtpProviderTestOptions } from "./smtp-provider-tests.js"
export type { CredentialsProviderTestOptions } from "./credentials-provider-tests.js"
export type { WebAuthnProviderTestOptions } from "./webauthn-provider-tests.js"
export { SoftAuthenticator, cbor, coseKeyOf, flags } from "./webauthn-authenticator.js"
export type {
  AuthenticationOptionsJSON,
  CeremonyOverrides,
  RegistrationOptionsJSON,
  StoredCredential,
} from "./webauthn-authenticator.js"
export { startPostgres } from "./postgres.js"
export type { PostgresServer, StartPostgresOptions } from "./postgres.js"
export { startMailSink, parseMail } from "./mail-sink.js"
export type { MailSink, MailSinkOptions, ReceivedMail } from "./mail-sink.js"
export {
  startOidcProvider,
  completeOidcLogin,
  completeOidcLogout,
  localOidcProvider,
} from "./oidc-provider.js"
export type {
  StartOidcProviderOptions,
  OidcProviderServer,
  CompleteOidcLoginOptions,
  OidcCallback,
} from "./oidc-provider.js"
export {
  integrationConfig,
  integrationCredentials,
  integrationUsers,
} from "./integration-config.js"
export type { IntegrationApp, IntegrationHarness } from "./integration-config.js"
export { HttpBrowser, sendRaw } from "./http-browser.js"
export type { BrowserRequestInit, RawRequest, RawResponse } from "./http-browser.js"
export { storeCookies, cookieHeader } from "./cookie-jar.js"
export { listenOnLoopback } from "./loopback.js"
export type { LoopbackServer } from "./loopback.js"
export { runRateLimitStoreWorker, incrementMany } from "./rate-limit-store-worker.js"
export { startRedis, findRedisServer } from "./redis.js"
export type { RedisServer, StartRedisOptions } from "./redis.js"
export { StandIn, startStandIn, json, readJson, readForm } from "./stand-in.js"
export type { Recorded, StandInHandler } from "./stand-in.js"
export { FakeIssuer, basicCredentials } from "./fake-issuer.js"
export type { CodeRecord, FakeIssuerOptions, TokenEndpointAuth } from "./fake-issuer.js"
export { AppBrowser, parseSetCookies, setsSession, SESSION_COOKIE } from "./browser.js"
export type { SetCookie } from "./browser.js"
