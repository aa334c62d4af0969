/**
 * What the conformance suite does not see of `SqlRateLimitStore` (on SQLite
 * here; PostgreSQL runs the suite in postgres.test.ts): the table and index the
 * migration makes, rows cleaned up by `cleanup()` and opportunistically, and
 * a counter revived after expiry but before cleanup starting again at 1.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Sqlite from "better-sqlite3"
import { Kysely, SqliteDialect, sql } from "kysely"
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest"
import { SqlAdapter, SqlRateLimitStore, migrate, type Database } from "@tessera/sql"
import { queryLog } from "./helpers.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-rate-limit-"))
const adapter = SqlAdapter.sqlite(join(dir, "limits.db"))

beforeAll(async () => {
  await adapter.migrate()
})

afterAll(async () => {
  await adapter.close()
  rmSync(dir, { recursive: true, force: true })
})

const rows = async () =>
  (await sql<{ n: number }>`select count(*) as n from rate_limits`.execute(adapter.db)).rows[0]!.n

describe("the rate_limits table", () => {
  test("key is the primary key; expires_at is integer milliseconds, indexed", async () => {
    const columns = await sql<{
      name: string
      type: string
      pk: number
    }>`pragma table_info(rate_limits)`.execute(adapter.db)
    expect(columns.rows.map(({ name, type, pk }) => ({ name, type, pk }))).toEqual([
      { name: "key", type: "TEXT", pk: 1 },
      { name: "count", type: "INTEGER", pk: 0 },
      { name: "expires_at", type: "INTEGER", pk: 0 },
    ])
    const indexes = await sql<{ name: string }>`pragma index_list(rate_limits)`.execute(adapter.db)
    expect(indexes.rows.map((r) => r.name)).toContain("rate_limits_expires_at_idx")
  })

  test("increment is one upsert statement", async () => {
    const log = queryLog()
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new Sqlite(join(dir, "logged.db")) }),
      log: (event) => log.log(event),
    })
    try {
      await migrate(db)
      const store = SqlRateLimitStore(db, { cleanupInterval: 0 })
      const statements = await log.record(() => store.increment("one-statement", 60))
      expect(statements).toHaveLength(1)
      expect(statements[0]).toMatch(
        /^insert into "rate_limits" .* on conflict .* returning "count"$/,
      )
    } finally {
      await db.destroy()
    }
  })
})

describe("expiry", () => {
  test("cleanup() deletes expired rows, in batches, and leaves live ones", async () => {
    let now = 1_700_000_000_000
    const store = adapter.rateLimitStore({ now: () => now, cleanupInterval: 0 })
    const before = await rows()
    // 2,500 expired counters: three batches of at most 1,000.
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 2500)
      insert into rate_limits (key, count, expires_at) select 'expired:' || i, 1, ${now - 1} from n`.execute(
      adapter.db,
    )
    await store.increment("live", 60)
    expect(await rows()).toBe(before + 2501)
    expect(await store.cleanup()).toBe(2500)
    expect(await rows()).toBe(before + 1)
    expect(await store.get("live")).toBe(1)
    now += 61_000
    expect(await store.cleanup()).toBe(1)
  })

  test("the first increment of a process cleans up, without waiting for it", async () => {
    const now = 1_800_000_000_000
    await sql`insert into rate_limits (key, count, expires_at) values ('stale', 3, ${now - 1})`.execute(
      adapter.db,
    )
    const store = adapter.rateLimitStore({ now: () => now })
    await store.increment("fresh", 60)
    await vi.waitFor(async () => {
      const stale = await sql`select 1 from rate_limits where key = 'stale'`.execute(adapter.db)
      expect(stale.rows).toHaveLength(0)
    })
  })

  test("an expired row not yet cleaned up reads 0 and restarts at 1", async () => {
    let now = 1_900_000_000_000
    const store = adapter.rateLimitStore({ now: () => now, cleanupInterval: 0 })
    await store.increment("revived", 10)
    await store.increment("revived", 10)
    now += 10_000
    expect(await store.get("revived")).toBe(0)
    expect(await store.increment("revived", 10)).toBe(1)
    // ...with a new expiry, from this first hit.
    now += 9_000
    expect(await store.get("revived")).toBe(1)
  })
})
