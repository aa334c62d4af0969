/**
 * Red team 15: the row PostgreSQL quotes in a not-null violation's `detail`
 * (`Failing row contains (..., <refresh_token>, <access_token>, ...)`), in an
 * error the SQL adapter throws, on a real PostgreSQL.
 *
 * Errors leaving `@tessera/sql` are scrubbed of the values a constraint error
 * quotes (`redact.ts`), because the core logs an adapter's failure as a
 * server fault, with its cause, and a driver error prints its `detail`. Before
 * round 15 only a key error's values (`Key (email)=(...)`) were cut: a row
 * refused for a missing column was quoted whole, the provider's OAuth tokens
 * and the user's e-mail with it. (Core never sends such a row: an account
 * without an id is refused before the adapter, so this is the app's own
 * code calling the adapter, or a future path; the error must be safe to log
 * either way.) The error keeps its class, `code` and column.
 */
import { inspect } from "node:util"
import { describe, expect, test } from "vitest"
import { SqlAdapter } from "@tessera/sql"
import { postgresSchemas } from "../helpers.js"

const pg = postgresSchemas("rt15_row")

describe("red team 15: a not-null violation's failing row is not quoted", () => {
  test("linkAccount and createSession refused by NOT NULL: no token or e-mail in the error", async () => {
    const adapter = SqlAdapter.postgres(pg.poolConfig(await pg.fresh("row")))
    try {
      await adapter.migrate()
      const email = `ada-${crypto.randomUUID()}@example.com`
      const user = await adapter.createUser!({
        id: crypto.randomUUID(),
        email,
        emailVerified: null,
      })
      const access = `gho_${crypto.randomUUID()}`
      const refresh = `ghr_${crypto.randomUUID()}`
      const linking = adapter.linkAccount!({
        userId: user.id,
        type: "oauth",
        provider: "github",
        providerAccountId: undefined as unknown as string,
        access_token: access,
        refresh_token: refresh,
        scope: email,
        token_type: "bearer",
      })
      const error = await linking.then(
        () => expect.unreachable("linked an account without an id"),
        (e: unknown) => e as Error & { code?: string; column?: string; detail?: string },
      )
      expect(error.code).toBe("23502")
      expect(error.column).toBe("provider_account_id")
      expect(error.detail).toMatch(/^Failing row contains \(\*\*\*\)/)
      const printed = inspect(error, { depth: 5 }) + JSON.stringify(error)
      for (const secret of [access, refresh, email]) expect(printed).not.toContain(secret)

      const token = `session-${crypto.randomUUID()}`
      const session = await adapter.createSession!({
        sessionToken: token,
        userId: user.id,
        expires: null as unknown as Date,
      }).then(
        () => expect.unreachable("stored a session without an expiry"),
        (e: unknown) => e as Error & { code?: string },
      )
      expect(session.code).toBe("23502")
      expect(inspect(session, { depth: 5 })).not.toContain(token)
    } finally {
      await adapter.close()
    }
  })
})
