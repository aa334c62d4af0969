/**
 * The PostgreSQL pool SqlAdapter.postgres opens: 64 connections unless the
 * config says otherwise, so 64 concurrent session checks each get a connection
 * instead of queueing behind pg's default of 10.
 */
import { sql } from "kysely"
import { afterAll, describe, expect, test } from "vitest"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { postgresSchemas } from "./helpers.js"

const pgs = postgresSchemas("pool")
const LOCK = 7_364_211

/** How many of the app's connections wait on the test's advisory lock, once that stops changing. */
async function waitingOn(application: string, expected: number): Promise<number> {
  let count = -1
  // Connections come up one by one: poll until all expected ones wait (or give up).
  for (let i = 0; i < 300 && count < expected; i++) {
    const { rows } = await pgs.admin.query<{ count: string }>(
      `select count(*) from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
      [application],
    )
    count = Number(rows[0]!.count)
    if (count < expected) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return count
}

describe("SqlAdapter.postgres pool", () => {
  const adapters: SqlAdapterInstance[] = []
  afterAll(() => Promise.all(adapters.map((adapter) => adapter.close())))

  test("64 statements in flight get 64 connections by default", async () => {
    const application = `tessera-pool-${crypto.randomUUID().slice(0, 8)}`
    const adapter = SqlAdapter.postgres({
      ...pgs.poolConfig(await pgs.fresh("default")),
      application_name: application,
    })
    adapters.push(adapter)
    await pgs.admin.query("select pg_advisory_lock($1)", [LOCK])
    let statements: Promise<unknown>[] = []
    try {
      // Each statement waits for the lock the test holds, keeping its connection.
      statements = Array.from({ length: 64 }, () =>
        sql`select pg_advisory_xact_lock_shared(${LOCK})`.execute(adapter.db),
      )
      expect(await waitingOn(application, 64)).toBe(64)
    } finally {
      await pgs.admin.query("select pg_advisory_unlock($1)", [LOCK])
      await Promise.all(statements)
    }
  })
})
