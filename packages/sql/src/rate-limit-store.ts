/**
 * Rate-limit counters in the `rate_limits` table (migration 0002), for apps
 * that run several processes on one SQLite file or one PostgreSQL database.
 *
 * - `increment` is one statement, `INSERT ... ON CONFLICT (key) DO UPDATE ...
 *   RETURNING count`: atomic on both engines, whatever the number of processes
 *   (PostgreSQL locks the row; SQLite runs one writer at a time).
 * - A counter found expired by `increment` starts again at 1, so a key reused
 *   after its TTL never inherits an old count, even before cleanup ran.
 * - Expired rows are deleted opportunistically: after the first `increment`
 *   of a process and then at most once a minute, in batches, without making
 *   that request wait.
 *   `cleanup()` does it on demand (from a cron job, say).
 *
 * - `compareAndDelete` is atomic against `increment` from any process: on
 *   SQLite one `DELETE` whose condition compares every counter (a write
 *   statement holds the file's one write lock from its start); on PostgreSQL a
 *   transaction that locks the rows (`SELECT ... FOR UPDATE`, which reads the
 *   latest counts), compares them, and deletes them.
 *
 * Times are the app's clock (`now`), stored as the other tables store them
 * (`timestamptz` on PostgreSQL, integer milliseconds on SQLite). They only
 * decide garbage collection: the limiter's keys carry their window.
 * @module
 */
import { sql, type Kysely } from "kysely"
import type { RateLimitStore } from "@tessera/core/rate-limit"
import { detectDialect } from "./dialects.js"
import { redactError } from "./redact.js"
import type { Database, SqlDialect, Timestamp } from "./schema.js"

/**
 * Options of {@link SqlRateLimitStore}.
 *
 * @see [docs/passwords-and-rate-limits.md](https://github.com/tessera-auth/tessera/blob/main/docs/passwords-and-rate-limits.md)
 */
export interface SqlRateLimitStoreOptions {
  /** Needed only when it cannot be told from the Kysely instance's dialect. */
  dialect?: SqlDialect
  /** The clock, in milliseconds (default `Date.now`); tests move it by hand. */
  now?: () => number
  /** Seconds between opportunistic cleanups in this process (default 60; 0 turns them off). */
  cleanupInterval?: number
  /** @internal Strings scrubbed from errors (set by `SqlAdapter.postgres`). */
  secrets?: string[]
}

/**
 * A `RateLimitStore` on SQL, with `cleanup()` to delete expired counters now.
 *
 * @see [docs/passwords-and-rate-limits.md](https://github.com/tessera-auth/tessera/blob/main/docs/passwords-and-rate-limits.md)
 */
export interface SqlRateLimitStoreInstance extends RateLimitStore {
  /** Deletes every expired counter, in batches of 1,000; returns how many. */
  cleanup(): Promise<number>
}

const BATCH = 1000

/**
 * A rate-limit store on a Kysely instance whose schema is migrated (`migrate`,
 * or `adapter.migrate()`). Most apps get one from their adapter:
 * `adapter.rateLimitStore()`, on the same connection.
 *
 * @param db a Kysely instance on SQLite or PostgreSQL
 * @param options the dialect (when it cannot be detected), a clock, the cleanup interval
 * @example
 * ```ts
 * import { SqlAdapter, SqlRateLimitStore } from "@tessera/sql"
 * import { createRateLimiter } from "@tessera/core/rate-limit"
 *
 * const adapter = SqlAdapter.postgres(process.env.DATABASE_URL!)
 * await adapter.migrate()
 * const limiter = createRateLimiter({ secret, store: adapter.rateLimitStore(), rules })
 * // or, on your own Kysely instance: SqlRateLimitStore(db)
 * ```
 * @see https://www.postgresql.org/docs/current/sql-insert.html#SQL-ON-CONFLICT
 * @see https://www.sqlite.org/lang_upsert.html
 */
export function SqlRateLimitStore(
  db: Kysely<any>,
  options: SqlRateLimitStoreOptions = {},
): SqlRateLimitStoreInstance {
  const dialect = options.dialect ?? detectDialect(db)
  if (!dialect)
    throw new Error(
      'SqlRateLimitStore: cannot tell the database engine; pass { dialect: "sqlite" | "postgres" }',
    )
  const kysely = db as Kysely<Database>
  const now = options.now ?? Date.now
  const interval = (options.cleanupInterval ?? 60) * 1000
  const secrets = options.secrets ?? []
  const time = (ms: number): Timestamp => (dialect === "sqlite" ? ms : new Date(ms))
  // The first increment cleans up: a process starting after a long stop may find many expired rows.
  let nextCleanup = interval > 0 ? 0 : Infinity

  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw redactError(error, secrets)
    }
  }

  async function cleanup(): Promise<number> {
    return guard(async () => {
      let total = 0
      for (;;) {
        // A bounded batch through the expires_at index: each statement holds
        // its locks briefly, however large the backlog.
        const expired = kysely
          .selectFrom("rate_limits")
          .select("key")
          .where("expires_at", "<=", time(now()))
          .limit(BATCH)
        const result = await kysely
          .deleteFrom("rate_limits")
          .where("key", "in", expired)
          .executeTakeFirst()
        const deleted = Number(result.numDeletedRows)
        total += deleted
        if (deleted < BATCH) return total
      }
    })
  }

  return {
    async increment(key, ttlSeconds) {
      const at = now()
      const current = time(at)
      const row = await guard(() =>
        kysely
          .insertInto("rate_limits")
          .values({ key, count: 1, expires_at: time(at + ttlSeconds * 1000) })
          .onConflict((conflict) =>
            conflict.column("key").doUpdateSet({
              count: sql<number>`case when rate_limits.expires_at <= ${current} then 1 else rate_limits.count + 1 end`,
              expires_at: sql<Timestamp>`case when rate_limits.expires_at <= ${current} then excluded.expires_at else rate_limits.expires_at end`,
            }),
          )
          .returning("count")
          .executeTakeFirstOrThrow(),
      )
      if (at >= nextCleanup) {
        nextCleanup = at + interval
        // Started after the increment and not awaited: a request should not
        // wait for housekeeping, and a failed cleanup leaves rows for the next.
        cleanup().catch(() => {})
      }
      return Number(row.count)
    },

    async get(key) {
      const row = await guard(() =>
        kysely
          .selectFrom("rate_limits")
          .select("count")
          .where("key", "=", key)
          .where("expires_at", ">", time(now()))
          .executeTakeFirst(),
      )
      return row ? Number(row.count) : 0
    },

    async delete(key) {
      await guard(() => kysely.deleteFrom("rate_limits").where("key", "=", key).execute())
    },

    async compareAndDelete(expected) {
      const entries = Object.entries(expected)
      if (entries.length === 0) return true
      // A counter expected at 0 has no row to delete; it is only compared (a row made
      // since is a hit counted since, and kept).
      const present = entries.filter(([, count]) => count > 0).map(([key]) => key)
      const current = time(now())
      // Nothing to delete (the limiter never asks this: the success counted itself first), but
      // still compared, as every store does: a counter made since is a change, so `false`.
      if (present.length === 0)
        return guard(async () => {
          const made = await kysely
            .selectFrom("rate_limits")
            .select("key")
            .where(
              "key",
              "in",
              entries.map(([key]) => key),
            )
            .where("expires_at", ">", current)
            .executeTakeFirst()
          return made === undefined
        })
      return guard(async () => {
        if (dialect === "sqlite") {
          // Uncorrelated subqueries: evaluated once, before any row goes.
          const unchanged = sql.join(
            entries.map(
              ([key, count]) =>
                sql`coalesce((select r.count from rate_limits r where r.key = ${key} and r.expires_at > ${current}), 0) = ${count}`,
            ),
            sql` and `,
          )
          const result = await kysely
            .deleteFrom("rate_limits")
            .where("key", "in", present)
            .where(sql<boolean>`${unchanged}`)
            .executeTakeFirst()
          return Number(result.numDeletedRows) > 0
        }
        return kysely.transaction().execute(async (trx) => {
          // Locked in key order, so two of these never wait on each other in a cycle.
          const rows = await trx
            .selectFrom("rate_limits")
            .select(["key", "count"])
            .where(
              "key",
              "in",
              entries.map(([key]) => key),
            )
            .where("expires_at", ">", current)
            .orderBy("key")
            .forUpdate()
            .execute()
          const counts = new Map(rows.map((row) => [row.key, Number(row.count)]))
          if (entries.some(([key, count]) => (counts.get(key) ?? 0) !== count)) return false
          await trx.deleteFrom("rate_limits").where("key", "in", present).execute()
          return true
        })
      })
    },

    cleanup,
  }
}
