export { runAdapterTests, testUser, testAccount, testAuthenticator } from "./adapter-tests.js"
export type { AdapterTestDb, AdapterTestOptions } from "./adapter-tests.js"
export { startPostgres } from "./postgres.js"
export type { PostgresServer, StartPostgresOptions } from "./postgres.js"
export { startMailSink, parseMail } from "./mail-sink.js"
export type { MailSink, MailSinkOptions, ReceivedMail } from "./mail-sink.js"
export { startOidcProvider, completeOidcLogin, localOidcProvider } from "./oidc-provider.js"
export type {
  StartOidcProviderOptions,
  OidcProviderServer,
  CompleteOidcLoginOptions,
  OidcCallback,
} from "./oidc-provider.js"
export {
  runIntegrationTests,
  integrationConfig,
  integrationCredentials,
  integrationUsers,
} from "./integration-tests.js"
export type { IntegrationApp, IntegrationHarness } from "./integration-tests.js"
export { HttpBrowser, sendRaw } from "./http-browser.js"
export type { BrowserRequestInit, RawRequest, RawResponse } from "./http-browser.js"
export { storeCookies, cookieHeader } from "./cookie-jar.js"
export { listenOnLoopback } from "./loopback.js"
export type { LoopbackServer } from "./loopback.js"
export { runRateLimitStoreTests } from "./rate-limit-store-tests.js"
export type { RateLimitStoreTestOptions, CrossProcessOptions } from "./rate-limit-store-tests.js"
export { runRateLimitStoreWorker, incrementMany } from "./rate-limit-store-worker.js"
export { startRedis, findRedisServer } from "./redis.js"
export type { RedisServer, StartRedisOptions } from "./redis.js"
export { StandIn, startStandIn, json, readJson, readForm } from "./stand-in.js"
export type { Recorded, StandInHandler } from "./stand-in.js"
export { FakeIssuer, basicCredentials } from "./fake-issuer.js"
export type { CodeRecord, FakeIssuerOptions, TokenEndpointAuth } from "./fake-issuer.js"
export { AppBrowser, parseSetCookies, setsSession, SESSION_COOKIE } from "./browser.js"
export type { SetCookie } from "./browser.js"
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
export type {
  EmailProviderTestOptions,
  EmailProviderTestHandle,
  MailApiRequest,
} from "./email-provider-tests.js"
