/**
 * The limits of `Auth()` on the SQL store, on SQLite (a real file) and
 * PostgreSQL: two configurations, each with its own adapter instance and
 * connections (as two processes of one app would have), count together, so
 * spreading guesses over processes gains nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { PostgresFixture, sqliteBackend } from "../harness/backends.js"
import { csrfToken, makeConfig, ORIGIN, post, setsSession } from "../harness/index.js"

const postgres = new PostgresFixture()
beforeAll(async () => {
  await postgres.start()
}, 60_000)
afterAll(async () => {
  await postgres.stop()
})

async function attempt(config: AuthConfig, password: string) {
  const { token, jar } = await csrfToken(config)
  const response = await Auth(
    post("/auth/callback/credentials", { username: "ada", password, csrfToken: token }, { jar }),
    config,
  )
  return { location: response.headers.get("location"), signedIn: setsSession(response) }
}

/** A configuration as one process would have it: its own adapter instance on the shared database. */
function processConfig(adapter: SqlAdapterInstance) {
  return makeConfig({
    session: { strategy: "jwt" },
    rateLimit: { store: adapter.rateLimitStore(), credentials: { max: 4, window: 900 } },
  }).config
}

describe.each([
  [
    "sqlite",
    async () => {
      const first = await sqliteBackend()
      const second = SqlAdapter.sqlite(first.path)
      return {
        adapters: [first.adapter as SqlAdapterInstance, second],
        close: async () => {
          await second.close()
          await first.close()
        },
      }
    },
  ],
  [
    "postgres",
    async () => {
      const first = await postgres.backend()
      const second = SqlAdapter.postgres({
        connectionString: postgres.url,
        options: `-c search_path=${first.schema}`,
      })
      return {
        adapters: [first.sql, second],
        close: async () => {
          await second.close()
          await first.close()
        },
      }
    },
  ],
] as const)("Auth() rate limits on the SQL store (%s)", (_name, open) => {
  test("failures in two processes add up; the lock holds against the right password in both", async () => {
    const { adapters, close } = await open()
    try {
      const [one, two] = adapters.map(processConfig)
      await attempt(one!, "a")
      await attempt(two!, "b")
      await attempt(one!, "c")
      await attempt(two!, "d")
      for (const config of [one!, two!]) {
        const result = await attempt(config, "correct horse")
        expect(result.signedIn).toBe(false)
        expect(result.location).toBe(`${ORIGIN}/auth/signin?error=RateLimited`)
      }
      const rows = await adapters[0]!.db.selectFrom("rate_limits").selectAll().execute()
      expect(rows.length).toBeGreaterThan(0)
      // The SHA-256 hex of the identifier may hold "ada" by chance; only the rest could be a raw name.
      for (const row of rows)
        expect(row.key.replace(/[0-9a-f]{64}/g, "<hash>")).not.toContain("ada")
    } finally {
      await close()
    }
  })
})
