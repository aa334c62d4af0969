/**
 * The PostgreSQL pool SqlAdapter.postgres opens: 64 connections unless the
 * config says otherwise, so 64 concurrent session checks each get a connection
 * instead of queueing behind pg's default of 10.
 */
import { sql } from "kysely"
import { afterAll, describe, expect, test } from "vitest"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { postgresSchemas, waitingOnLocks } from "./helpers.js"

const pgs = postgresSchemas("pool")
const LOCK = 7_364_211

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
      expect(await waitingOnLocks(pgs.admin, application, 64)).toBe(64)
    } finally {
      await pgs.admin.query("select pg_advisory_unlock($1)", [LOCK])
      await Promise.all(statements)
    }
  })
})
