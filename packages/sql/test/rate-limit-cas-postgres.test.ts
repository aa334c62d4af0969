/**
 * `SqlRateLimitStore.compareAndDelete` on PostgreSQL against a concurrent writer. Under READ
 * COMMITTED a plain read sees the count as it was before another transaction's uncommitted
 * hit, and the delete that follows waits for that transaction, then deletes the row it
 * changed: the hit would go. The store locks the rows as it reads them (`FOR UPDATE`): the read
 * waits for the hit's commit, sees its count, and nothing is deleted.
 */
import pg from "pg"
import { afterAll, expect, test } from "vitest"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { postgresSchemas, waitingOnLocks } from "./helpers.js"

const pgs = postgresSchemas("cas")
const adapters: SqlAdapterInstance[] = []
afterAll(() => Promise.all(adapters.map((adapter) => adapter.close())))

test("a hit committed while compareAndDelete runs is seen, and nothing is deleted", async () => {
  const application = `tessera-cas-${crypto.randomUUID().slice(0, 8)}`
  const schema = await pgs.fresh("race")
  const adapter = SqlAdapter.postgres({ ...pgs.poolConfig(schema), application_name: application })
  adapters.push(adapter)
  await adapter.migrate()
  const store = adapter.rateLimitStore({ cleanupInterval: 0 })
  await store.increment("hits", 60)
  await store.increment("ok", 60)

  // Another process's hit, its transaction open: it holds the row.
  const other = new pg.Client(pgs.poolConfig(schema))
  await other.connect()
  try {
    await other.query("begin")
    await other.query("update rate_limits set count = count + 1 where key = 'hits'")
    const clearing = store.compareAndDelete!({ hits: 1, ok: 1 })
    // The clear waits on the row the hit holds, then the hit commits.
    expect(await waitingOnLocks(pgs.admin, application, 1)).toBe(1)
    await other.query("commit")
    expect(await clearing).toBe(false)
    expect(await store.get("hits")).toBe(2)
    expect(await store.get("ok")).toBe(1)
  } finally {
    await other.end()
  }
})
