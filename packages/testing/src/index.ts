export { runAdapterTests, testUser, testAccount, testAuthenticator } from "./adapter-tests.js"
export type { AdapterTestDb, AdapterTestOptions } from "./adapter-tests.js"
export { startPostgres } from "./postgres.js"
export type { PostgresServer, StartPostgresOptions } from "./postgres.js"
