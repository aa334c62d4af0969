/**
 * The demo's one SQLite database: Tessera's tables (users, accounts, sessions,
 * verification tokens, passkeys) from `@tessera/sql`, plus two of the demo's
 * own on the same connection: password hashes and the development mailbox.
 * @module
 */
import type { Generated, Kysely } from "kysely"
import { SqlAdapter, type Database, type SqlAdapterInstance } from "@tessera/sql"
import { demoSettings } from "./settings"

/** Password hashes live apart from `users`, which is Tessera's and has no such column. */
export interface PasswordsTable {
  user_id: string
  password_hash: string
}

export interface MailboxTable {
  id: Generated<number>
  recipient: string
  subject: string
  text: string
  /** The link the mail carries, shown as a button in the mailbox. */
  url: string
  /** Milliseconds since the epoch. */
  sent_at: number
}

export interface DemoDatabase extends Database {
  demo_passwords: PasswordsTable
  demo_mailbox: MailboxTable
}

let adapter: SqlAdapterInstance | undefined

/**
 * The adapter. Making it opens nothing: Kysely opens the file on the first
 * query, so `vite build`, which imports the modules using it, never does.
 */
export function authAdapter(): SqlAdapterInstance {
  return (adapter ??= SqlAdapter.sqlite(demoSettings().database))
}

/** Kysely on the same connection, typed with the demo's tables too. */
export function database(): Kysely<DemoDatabase> {
  return authAdapter().db.withTables<{
    demo_passwords: PasswordsTable
    demo_mailbox: MailboxTable
  }>()
}

/** Applies Tessera's pending migrations, then creates the demo's own tables. Idempotent. */
export async function migrateDatabase(): Promise<string[]> {
  const { applied } = await authAdapter().migrate()
  const db = database()
  await db.schema
    .createTable("demo_passwords")
    .ifNotExists()
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("password_hash", "text", (c) => c.notNull())
    .execute()
  await db.schema
    .createTable("demo_mailbox")
    .ifNotExists()
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("sent_at", "integer", (c) => c.notNull())
    .execute()
  return applied
}
