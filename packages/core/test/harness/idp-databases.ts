/**
 * The setup of the tests that run one flow against the local OpenID provider on each real
 * database: for the calling test file, one oidc-provider and one PostgreSQL server, started
 * before its tests and stopped after them, and the backends (SQLite in a temp file, a fresh
 * PostgreSQL schema) for `describe.each` / `test.each`.
 */
import { afterAll, beforeAll } from "vitest"
import {
  startOidcProvider,
  type OidcProviderServer,
  type StartOidcProviderOptions,
} from "@tessera/testing"
import { PostgresFixture, sqliteBackend } from "./backends.js"

export function oidcProviderAndDatabases(options: StartOidcProviderOptions) {
  const postgres = new PostgresFixture()
  let idp: OidcProviderServer | undefined
  beforeAll(async () => {
    await postgres.start()
    idp = await startOidcProvider(options)
  }, 60_000)
  afterAll(async () => {
    await idp?.stop()
    await postgres.stop()
  })
  return {
    /** The provider (once `beforeAll` ran). */
    get idp(): OidcProviderServer {
      return idp!
    },
    databases: [
      ["sqlite", sqliteBackend],
      ["postgres", () => postgres.backend()],
    ] as const,
    postgres,
  }
}
