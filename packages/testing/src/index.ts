export { runAdapterTests, testUser, testAccount, testAuthenticator } from "./adapter-tests.js"
export type { AdapterTestDb, AdapterTestOptions } from "./adapter-tests.js"
export { startPostgres } from "./postgres.js"
export type { PostgresServer, StartPostgresOptions } from "./postgres.js"
export { startMailSink, parseMail } from "./mail-sink.js"
export type { MailSink, MailSinkOptions, ReceivedMail } from "./mail-sink.js"
export { startOidcProvider, completeOidcLogin } from "./oidc-provider.js"
export type {
  StartOidcProviderOptions,
  OidcProviderServer,
  CompleteOidcLoginOptions,
  OidcCallback,
} from "./oidc-provider.js"
