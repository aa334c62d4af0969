/**
 * Deleting what has expired: sessions, verification tokens (e-mail links,
 * used passkey challenges) and rate-limit counters. Nothing expired is ever
 * usable (every read checks the expiry), so this is housekeeping: the tables
 * stay small, and a leaked backup holds less.
 *
 * `purge()` runs it now (`npx tessera purge`, or a cron job); the adapter also
 * runs the verification-token part on its own, at most once a minute, after
 * it stores a new token, without making that request wait.
 * @module
 */
import type { Kysely } from "kysely"
import { assertMigrated } from "./migrations.js"
import type { Database, SqlDialect } from "./schema.js"

/**
 * How many expired rows `purge` deleted, per table.
 *
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md)
 */
export interface PurgeResult {
  sessions: number
  verificationTokens: number
  rateLimits: number
}

function timestamp(dialect: SqlDialect, when: Date) {
  return dialect === "sqlite" ? when.valueOf() : when
}

function deleted(result: { numDeletedRows: bigint }[]): number {
  return result.reduce((sum, row) => sum + Number(row.numDeletedRows), 0)
}

/** Deletes expired verification tokens; resolves to how many. */
export async function purgeVerificationTokens(
  db: Kysely<Database>,
  dialect: SqlDialect,
  now = new Date(),
): Promise<number> {
  return deleted(
    await db
      .deleteFrom("verification_tokens")
      .where("expires", "<=", timestamp(dialect, now))
      .execute(),
  )
}

/**
 * Deletes every expired session, verification token and rate-limit counter. Refuses first,
 * deleting nothing, a database not (fully) migrated or a table of the app's named like one of
 * Tessera's: its "expired" rows are not Tessera's to delete.
 */
export async function purgeExpired(
  db: Kysely<Database>,
  dialect: SqlDialect,
  now = new Date(),
): Promise<PurgeResult> {
  await assertMigrated(db, dialect)
  const at = timestamp(dialect, now)
  const sessions = deleted(await db.deleteFrom("sessions").where("expires", "<=", at).execute())
  const verificationTokens = await purgeVerificationTokens(db, dialect, now)
  const rateLimits = deleted(
    await db.deleteFrom("rate_limits").where("expires_at", "<=", at).execute(),
  )
  return { sessions, verificationTokens, rateLimits }
}

/**
 * Runs `task` at most once per `interval` ms, after the caller's work, never
 * making it wait; a failure is left for the next run (or `purge()`).
 */
export function occasionally(task: () => Promise<unknown>, interval = 60_000): () => void {
  let last = 0
  return () => {
    const now = Date.now()
    if (now - last < interval) return
    last = now
    void task().catch(() => undefined)
  }
}
