/**
 * Tessera's side of the import: the keys its tables already hold, and the
 * inserts of a plan, in the engine's column types (dates as integer
 * milliseconds and booleans as 0/1 on SQLite, as `adapter.ts` stores them).
 *
 * Inserts go in batches of a few hundred rows: one statement per row would
 * make a large import a round trip per row on PostgreSQL, and one statement
 * for everything would exceed the engines' limits on bound parameters.
 * @module
 */
import type { Kysely } from "kysely"
import type { Database, SqlDialect, Timestamp } from "../../schema.js"
import type { Catalog } from "./detect.js"
import { accountKey, noExistingKeys, type ExistingKeys, type Plan } from "./plan.js"

/** The keys of Tessera's tables; tables not there (yet) hold none. */
export async function readExistingKeys(
  db: Kysely<Database>,
  catalog: Catalog,
): Promise<ExistingKeys> {
  const keys = noExistingKeys()
  if (catalog.has("users"))
    for (const row of await db.selectFrom("users").select(["id", "email"]).execute()) {
      keys.userIds.add(row.id)
      if (row.email !== null) keys.emails.set(row.email, row.id)
    }
  if (catalog.has("accounts"))
    for (const row of await db
      .selectFrom("accounts")
      .select(["provider", "provider_account_id"])
      .execute())
      keys.accounts.add(accountKey(row.provider, row.provider_account_id))
  if (catalog.has("sessions"))
    for (const row of await db.selectFrom("sessions").select("session_token").execute())
      keys.sessions.add(row.session_token)
  if (catalog.has("authenticators"))
    for (const row of await db.selectFrom("authenticators").select("credential_id").execute())
      keys.credentialIds.add(row.credential_id)
  return keys
}

const BATCH = 200

async function insertBatches<T, R extends Record<string, unknown>>(
  rows: readonly T[],
  toRow: (row: T) => R,
  insert: (batch: R[]) => Promise<unknown>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH).map(toRow))
}

/** Inserts every row of the plan, parents first. Run it inside the import's transaction. */
export async function writePlan(
  db: Kysely<Database>,
  dialect: SqlDialect,
  plan: Plan,
): Promise<void> {
  const sqlite = dialect === "sqlite"
  const date = (d: Date): Timestamp => (sqlite ? d.valueOf() : d)
  const importedAt = new Date()
  const bool = (b: boolean) => (sqlite ? (b ? 1 : 0) : b)

  await insertBatches(
    plan.users,
    (u) => ({
      id: u.id,
      name: u.name,
      email: u.email,
      email_verified: u.emailVerified ? date(u.emailVerified) : null,
      image: u.image,
    }),
    (batch) => db.insertInto("users").values(batch).execute(),
  )
  await insertBatches(
    plan.accounts,
    (a) => ({
      user_id: a.userId,
      type: a.type,
      provider: a.provider,
      provider_account_id: a.providerAccountId,
      refresh_token: a.refresh_token,
      access_token: a.access_token,
      expires_at: a.expires_at,
      token_type: a.token_type,
      scope: a.scope,
      id_token: a.id_token,
      session_state: a.session_state,
    }),
    (batch) => db.insertInto("accounts").values(batch).execute(),
  )
  await insertBatches(
    plan.sessions,
    // Each session becomes a record users can list and end (0003): an id, and "now" as its times.
    (s) => ({
      session_token: s.sessionToken,
      user_id: s.userId,
      expires: date(s.expires),
      id: crypto.randomUUID().replaceAll("-", ""),
      created_at: date(importedAt),
      last_seen_at: date(importedAt),
    }),
    (batch) => db.insertInto("sessions").values(batch).execute(),
  )
  await insertBatches(
    plan.authenticators,
    (a) => ({
      credential_id: a.credentialID,
      user_id: a.userId,
      provider_account_id: a.providerAccountId,
      credential_public_key: a.credentialPublicKey,
      counter: a.counter,
      credential_device_type: a.credentialDeviceType,
      credential_backed_up: bool(a.credentialBackedUp),
      transports: a.transports,
    }),
    (batch) => db.insertInto("authenticators").values(batch).execute(),
  )
}
