/**
 * The schema, as Kysely migrations kept in code (no migration files to ship or
 * find at run time), and `migrate()`, which applies the pending ones.
 *
 * Migrations are recorded in `tessera_migrations`, not Kysely's default table,
 * so an app can run its own Kysely migrations on the same database.
 * @module
 */
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from "kysely"
import { detectDialect } from "./dialects.js"
import { redactError } from "./redact.js"
import type { SqlDialect } from "./schema.js"

/** Column types per engine. */
function types(dialect: SqlDialect) {
  const pg = dialect === "postgres"
  return {
    timestamp: pg ? "timestamptz" : "integer",
    bigint: pg ? "bigint" : "integer",
    boolean: pg ? "boolean" : "integer",
  } as const
}

/** 0001: users, accounts, sessions, verification tokens, authenticators. */
function init(dialect: SqlDialect): Migration {
  const t = types(dialect)
  return {
    // `if not exists` everywhere: a database whose tables were made before
    // they were recorded (by hand, or by an older version) still migrates.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("users")
        .ifNotExists()
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text")
        .addColumn("email", "text")
        .addColumn("email_verified", t.timestamp)
        .addColumn("image", "text")
        .addUniqueConstraint("users_email_key", ["email"])
        .execute()

      await db.schema
        .createTable("accounts")
        .ifNotExists()
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("provider", "text", (c) => c.notNull())
        .addColumn("provider_account_id", "text", (c) => c.notNull())
        .addColumn("refresh_token", "text")
        .addColumn("access_token", "text")
        .addColumn("expires_at", t.bigint)
        .addColumn("token_type", "text")
        .addColumn("scope", "text")
        .addColumn("id_token", "text")
        .addColumn("session_state", "text")
        .addPrimaryKeyConstraint("accounts_pkey", ["provider", "provider_account_id"])
        .execute()
      await db.schema
        .createIndex("accounts_user_id_idx")
        .ifNotExists()
        .on("accounts")
        .column("user_id")
        .execute()

      await db.schema
        .createTable("sessions")
        .ifNotExists()
        .addColumn("session_token", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("expires", t.timestamp, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex("sessions_user_id_idx")
        .ifNotExists()
        .on("sessions")
        .column("user_id")
        .execute()

      await db.schema
        .createTable("verification_tokens")
        .ifNotExists()
        .addColumn("identifier", "text", (c) => c.notNull())
        .addColumn("token", "text", (c) => c.notNull())
        .addColumn("expires", t.timestamp, (c) => c.notNull())
        .addPrimaryKeyConstraint("verification_tokens_pkey", ["identifier", "token"])
        .execute()

      await db.schema
        .createTable("authenticators")
        .ifNotExists()
        .addColumn("credential_id", "text", (c) => c.primaryKey())
        .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("provider_account_id", "text", (c) => c.notNull())
        .addColumn("credential_public_key", "text", (c) => c.notNull())
        .addColumn("counter", t.bigint, (c) => c.notNull())
        .addColumn("credential_device_type", "text", (c) => c.notNull())
        .addColumn("credential_backed_up", t.boolean, (c) => c.notNull())
        .addColumn("transports", "text")
        .execute()
      await db.schema
        .createIndex("authenticators_user_id_idx")
        .ifNotExists()
        .on("authenticators")
        .column("user_id")
        .execute()
    },
    async down(db: Kysely<any>) {
      for (const table of [
        "authenticators",
        "verification_tokens",
        "sessions",
        "accounts",
        "users",
      ]) {
        await db.schema.dropTable(table).ifExists().execute()
      }
    },
  }
}

/** 0002: rate-limit counters (`SqlRateLimitStore`), with an index for deleting expired ones. */
function rateLimits(dialect: SqlDialect): Migration {
  const t = types(dialect)
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("rate_limits")
        .ifNotExists()
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("count", "integer", (c) => c.notNull())
        .addColumn("expires_at", t.timestamp, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex("rate_limits_expires_at_idx")
        .ifNotExists()
        .on("rate_limits")
        .column("expires_at")
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("rate_limits").ifExists().execute()
    },
  }
}

/** The columns `table` has now (to add only the missing ones: SQLite has no `add column if not exists`). */
async function columnsOf(
  db: Kysely<any>,
  dialect: SqlDialect,
  table: string,
): Promise<Set<string>> {
  // Not Kysely's introspection: it lists every schema's tables, and only this schema's count.
  const { rows } =
    dialect === "postgres"
      ? await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`.execute(db)
      : await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)
  return new Set(rows.map((row) => row.name))
}

/**
 * 0003: session records and token refresh. Every session row becomes a record
 * (id, when and where it started, when last seen, provider and the provider's
 * session id); existing rows get a random id and "now" as their times. JWT
 * sessions keep theirs in the same table. Accounts get a refresh lease.
 * Idempotent: only missing columns and indexes are added.
 */
function sessionRecords(dialect: SqlDialect): Migration {
  const t = types(dialect)
  const pg = dialect === "postgres"
  return {
    async up(db: Kysely<any>) {
      const sessionColumns = await columnsOf(db, dialect, "sessions")
      const added: [string, string][] = [
        ["id", "text"],
        ["created_at", t.timestamp],
        ["last_seen_at", t.timestamp],
        ["user_agent", "text"],
        ["ip_prefix", "text"],
        ["provider", "text"],
        ["provider_account_id", "text"],
        ["provider_session_id", "text"],
      ]
      for (const [name, type] of added) {
        if (!sessionColumns.has(name))
          await db.schema.alterTable("sessions").addColumn(name, sql.raw(type)).execute()
      }
      const randomId = pg
        ? sql`md5(random()::text || clock_timestamp()::text || session_token)`
        : sql`lower(hex(randomblob(16)))`
      const now = pg ? sql`now()` : sql`cast(strftime('%s', 'now') as integer) * 1000`
      await sql`update sessions set id = ${randomId} where id is null`.execute(db)
      await sql`update sessions set created_at = ${now} where created_at is null`.execute(db)
      await sql`update sessions set last_seen_at = created_at where last_seen_at is null`.execute(
        db,
      )
      await db.schema
        .createIndex("sessions_id_key")
        .ifNotExists()
        .unique()
        .on("sessions")
        .column("id")
        .execute()
      await db.schema
        .createIndex("sessions_provider_session_idx")
        .ifNotExists()
        .on("sessions")
        .columns(["provider", "provider_session_id"])
        .execute()
      await db.schema
        .createIndex("sessions_provider_account_idx")
        .ifNotExists()
        .on("sessions")
        .columns(["provider", "provider_account_id"])
        .execute()

      const accountColumns = await columnsOf(db, dialect, "accounts")
      if (!accountColumns.has("refresh_lease_id"))
        await db.schema.alterTable("accounts").addColumn("refresh_lease_id", "text").execute()
      if (!accountColumns.has("refresh_lease_until"))
        await db.schema
          .alterTable("accounts")
          .addColumn("refresh_lease_until", sql.raw(t.timestamp))
          .execute()
    },
    async down(db: Kysely<any>) {
      for (const index of [
        "sessions_id_key",
        "sessions_provider_session_idx",
        "sessions_provider_account_idx",
      ])
        await db.schema.dropIndex(index).ifExists().execute()
      // Rows of JWT sessions have no meaning without the new columns.
      await sql`delete from sessions where session_token like 'record:%'`.execute(db)
      for (const column of [
        "id",
        "created_at",
        "last_seen_at",
        "user_agent",
        "ip_prefix",
        "provider",
        "provider_account_id",
        "provider_session_id",
      ])
        await db.schema.alterTable("sessions").dropColumn(column).execute()
      await db.schema.alterTable("accounts").dropColumn("refresh_lease_id").execute()
      await db.schema.alterTable("accounts").dropColumn("refresh_lease_until").execute()
    },
  }
}

/**
 * 0004: second factors (TOTP keys, encrypted by Tessera) and the hashes of
 * their recovery codes. `user_id` has no foreign key: credentials users with
 * JWT sessions never become rows of `users`, yet may have a second factor.
 * `deleteUser` deletes a user's rows here itself.
 */
function twoFactor(dialect: SqlDialect): Migration {
  const t = types(dialect)
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("two_factors")
        .ifNotExists()
        .addColumn("user_id", "text", (c) => c.primaryKey())
        .addColumn("secret", "text", (c) => c.notNull())
        .addColumn("enabled_at", t.timestamp)
        .addColumn("last_used_step", t.bigint)
        .execute()
      await db.schema
        .createTable("two_factor_recovery_codes")
        .ifNotExists()
        .addColumn("user_id", "text", (c) => c.notNull())
        .addColumn("code_hash", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("two_factor_recovery_codes_pkey", ["user_id", "code_hash"])
        .execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("two_factor_recovery_codes").ifExists().execute()
      await db.schema.dropTable("two_factors").ifExists().execute()
    },
  }
}

/**
 * 0005: session records of users `users` does not hold. A credentials user is
 * `authorize`'s, not the database's: with JWT sessions it never becomes a row
 * of `users`, yet issue 12 gives every sign-in a record, so `sessions.user_id`
 * loses its foreign key (as `two_factors.user_id` never had one). `deleteUser`
 * deletes a user's sessions itself, and a database session still needs its
 * user: `getSessionAndUser` joins `users`. Idempotent: a table without the key
 * is left as it is.
 */
function sessionsWithoutUserKey(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === "postgres") {
        for (const name of await postgresUserKeys(db))
          await sql`alter table sessions drop constraint ${sql.id(name)}`.execute(db)
        return
      }
      await rebuildSqliteTable(db, "sessions", (ddl) => ddl.replace(SQLITE_USER_KEY, ""))
    },
    async down(db: Kysely<any>) {
      // Records of users `users` does not hold cannot keep a key to it.
      await sql`delete from sessions where user_id not in (select id from users)`.execute(db)
      if (dialect === "postgres") {
        if ((await postgresUserKeys(db)).length === 0)
          await sql`alter table sessions add constraint sessions_user_id_fkey
            foreign key (user_id) references users (id) on delete cascade`.execute(db)
        return
      }
      await rebuildSqliteTable(db, "sessions", (ddl) =>
        SQLITE_USER_KEY.test(ddl)
          ? ddl
          : ddl.replace(
              /("user_id"\s+text\s+not null)/i,
              '$1 references "users" ("id") on delete cascade',
            ),
      )
    },
  }
}

/** The foreign key Kysely wrote for `sessions.user_id` in SQLite (0001). */
const SQLITE_USER_KEY = /\s+references\s+"?users"?\s*\(\s*"?id"?\s*\)(\s+on\s+delete\s+cascade)?/i

/** The names of `sessions`' foreign keys to `users` in PostgreSQL. */
async function postgresUserKeys(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select con.conname as name
      from pg_constraint con
      join pg_class rel on rel.oid = con.conrelid
      join pg_namespace nsp on nsp.oid = rel.relnamespace
      join pg_class ref on ref.oid = con.confrelid
      where con.contype = 'f' and nsp.nspname = current_schema()
        and rel.relname = 'sessions' and ref.relname = 'users'`.execute(db)
  return rows.map((row) => row.name)
}

/**
 * Changes a SQLite table's definition the way SQLite documents
 * (https://www.sqlite.org/lang_altertable.html#otheralter): a new table from
 * the edited `CREATE TABLE`, the rows copied, the old one dropped, the new one
 * renamed, its indexes made again. Nothing happens when `edit` changes nothing.
 * Migrations on SQLite run inside one write transaction (`migrate`), so a
 * failure leaves the table as it was.
 */
async function rebuildSqliteTable(
  db: Kysely<any>,
  table: string,
  edit: (ddl: string) => string,
): Promise<void> {
  const { rows } = await sql<{ type: string; sql: string | null }>`select type, sql
      from sqlite_master where tbl_name = ${table} and sql is not null`.execute(db)
  const ddl = rows.find((row) => row.type === "table")?.sql
  if (!ddl) return
  const edited = edit(ddl)
  if (edited === ddl) return
  const temporary = `${table}_rebuilt`
  const head = new RegExp(`^create\\s+table\\s+(if\\s+not\\s+exists\\s+)?"?${table}"?`, "i")
  if (!head.test(edited)) throw new Error(`${table}: unexpected table definition`)
  await sql.raw(edited.replace(head, `create table "${temporary}"`)).execute(db)
  await sql`insert into ${sql.table(temporary)} select * from ${sql.table(table)}`.execute(db)
  await sql`drop table ${sql.table(table)}`.execute(db)
  await sql`alter table ${sql.table(temporary)} rename to ${sql.table(table)}`.execute(db)
  for (const row of rows) if (row.type === "index") await sql.raw(row.sql!).execute(db)
}

/**
 * Every migration, by name; names sort in the order they apply.
 *
 * @param dialect `"sqlite"` or `"postgres"`.
 * @see [Kysely: migrations](https://kysely.dev/docs/migrations)
 */
export function migrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    "0001_init": init(dialect),
    "0002_rate_limits": rateLimits(dialect),
    "0003_session_records": sessionRecords(dialect),
    "0004_two_factor": twoFactor(dialect),
    "0005_sessions_without_user_key": sessionsWithoutUserKey(dialect),
  }
}

class InCodeMigrationProvider implements MigrationProvider {
  constructor(
    private readonly dialect: SqlDialect,
    private readonly inTransaction = false,
  ) {}
  async getMigrations() {
    const all = migrations(this.dialect)
    if (!this.inTransaction || this.dialect !== "postgres") return all
    // In the caller's PostgreSQL transaction a failed statement aborts it, and Kysely's next
    // one (releasing its lock) would then fail too and hide which migration failed: each runs
    // in a savepoint, so the failure is reported by name and the caller rolls back the rest.
    return Object.fromEntries(
      Object.entries(all).map(([name, migration]) => [
        name,
        {
          ...migration,
          async up(db: Kysely<any>) {
            await sql`savepoint tessera_migration`.execute(db)
            try {
              await migration.up(db)
            } catch (error) {
              await sql`rollback to savepoint tessera_migration`.execute(db)
              throw error
            }
            await sql`release savepoint tessera_migration`.execute(db)
          },
        },
      ]),
    )
  }
}

/**
 * The table that records which migrations ran.
 *
 * @see [Kysely: migrations](https://kysely.dev/docs/migrations)
 */
export const MIGRATION_TABLE = "tessera_migrations"
export const MIGRATION_LOCK_TABLE = "tessera_migrations_lock"

/**
 * Options of {@link migrate}.
 *
 * @see {@link migrate}
 */
export interface MigrateOptions {
  /** Needed only when it cannot be told from the Kysely instance's dialect. */
  dialect?: SqlDialect
}

/**
 * Brings the schema up to date. Idempotent: with nothing pending it changes
 * nothing. Safe to run from several processes at once. Returns the names of
 * the migrations it applied.
 *
 * @param db A Kysely instance on SQLite or PostgreSQL.
 * @param options `dialect`, when Kysely's dialect does not tell it.
 * @see [Kysely: migrations](https://kysely.dev/docs/migrations)
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md)
 */
export async function migrate(
  db: Kysely<any>,
  options: MigrateOptions = {},
): Promise<{ applied: string[] }> {
  const dialect = options.dialect ?? detectDialect(db)
  if (!dialect)
    throw new Error('Cannot tell the database engine: pass { dialect: "sqlite" | "postgres" }')
  // One transaction on one connection, the schema lock taken first. SQLite: Kysely takes no
  // lock (it assumes a single connection), so two processes sharing the file would both apply
  // 0001 and one would fail to record it; `begin immediate` makes the others wait (busy
  // timeout) and then find nothing to do. PostgreSQL: Kysely's own path creates its migration
  // tables before its lock, outside any transaction, and so raced an Auth.js import (whose
  // transaction cannot recover from losing that race); both take `SCHEMA_LOCK` first.
  return db.connection().execute(async (connection) => {
    await sql.raw(dialect === "sqlite" ? "begin immediate" : "begin").execute(connection)
    try {
      await lockSchema(connection, dialect)
      await refuseForeignTables(connection, dialect)
      const result = await runMigrations(connection, dialect, { inTransaction: true })
      await sql`commit`.execute(connection)
      return result
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => {})
      throw error
    }
  })
}

/**
 * The PostgreSQL advisory lock every writer of Tessera's schema takes first, in its
 * transaction: `migrate` and the Auth.js import (`tessera migrate --from authjs --apply`).
 */
const SCHEMA_LOCK = "tessera: schema"

/**
 * Takes {@link SCHEMA_LOCK} for the rest of the caller's transaction on PostgreSQL (released
 * at commit or rollback). Nothing on SQLite, where `begin immediate` already serialises writers.
 */
export async function lockSchema(connection: Kysely<any>, dialect: SqlDialect): Promise<void> {
  if (dialect === "postgres")
    await sql`select pg_advisory_xact_lock(hashtext(${SCHEMA_LOCK}))`.execute(connection)
}

/**
 * Applies the pending migrations on `connection` (one connection, from
 * `db.connection()`), inside a transaction the caller has begun and will
 * commit or roll back: so the schema and whatever the caller writes next
 * become visible together, or not at all (the Auth.js import does this).
 */
export async function migrateInTransaction(
  connection: Kysely<any>,
  dialect: SqlDialect,
): Promise<{ applied: string[] }> {
  await refuseForeignTables(connection, dialect)
  return runMigrations(connection, dialect, { inTransaction: true })
}

/**
 * The columns each of Tessera's tables has from the migration that creates it (later ones only
 * add columns): what `migrate` asks of a table of that name it finds already there. Tessera's own
 * have them (apps' own columns beside them are left alone), and so have Auth.js's snake_case
 * tables (Prisma's `@map` schema), told apart by their `accounts.id` (`authjsAccounts`).
 */
const TABLE_COLUMNS: Record<string, readonly string[]> = {
  users: ["id", "name", "email", "email_verified", "image"],
  accounts: [
    "user_id",
    "type",
    "provider",
    "provider_account_id",
    "refresh_token",
    "access_token",
    "expires_at",
    "token_type",
    "scope",
    "id_token",
    "session_state",
  ],
  sessions: ["session_token", "user_id", "expires"],
  verification_tokens: ["identifier", "token", "expires"],
  authenticators: [
    "credential_id",
    "user_id",
    "provider_account_id",
    "credential_public_key",
    "counter",
    "credential_device_type",
    "credential_backed_up",
    "transports",
  ],
  rate_limits: ["key", "count", "expires_at"],
  two_factors: ["user_id", "secret", "enabled_at", "last_used_step"],
  two_factor_recovery_codes: ["user_id", "code_hash"],
}

/**
 * `migrate` found a table with the name of one of Tessera's that is neither Tessera's nor
 * Auth.js's (an app's own `users` or `sessions`): it refuses before changing anything, since
 * it would otherwise add Tessera's columns to that table or take it for its own.
 *
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md#what-migrate-refuses)
 */
export class ForeignTableError extends Error {
  override name = "ForeignTableError"
  /** Identifies the error in logs. Stable across releases. */
  readonly type = "ForeignTable"
}

/**
 * Throws {@link ForeignTableError} when a table named like one of Tessera's lacks the columns
 * Tessera gave it (PostgreSQL: in the schema `migrate` creates tables in; SQLite: names compared
 * without regard to case, as SQLite does). Runs first in `migrate`'s transaction, after the
 * schema lock: nothing has been created or altered yet.
 */
export async function refuseForeignTables(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  const names = Object.keys(TABLE_COLUMNS)
  const { rows } =
    dialect === "postgres"
      ? await sql<{ table: string; column: string }>`select table_name as "table",
            column_name as "column" from information_schema.columns
          where table_schema = current_schema() and table_name in (${sql.join(names)})`.execute(db)
      : await sql<{ table: string; column: string }>`select m.name as "table", p.name as "column"
          from sqlite_master m join pragma_table_info(m.name) p
          where m.type in ('table', 'view') and lower(m.name) in (${sql.join(names)})`.execute(db)
  const found = new Map<string, Set<string>>()
  for (const row of rows) {
    const columns = found.get(row.table) ?? new Set<string>()
    columns.add(dialect === "sqlite" ? row.column.toLowerCase() : row.column)
    found.set(row.table, columns)
  }
  const foreign = [...found]
    .map(([table, columns]) => ({
      table,
      why: `no column ${TABLE_COLUMNS[table.toLowerCase()]!.filter((c) => !columns.has(c)).join(", ")}`,
      foreign: TABLE_COLUMNS[table.toLowerCase()]!.some((c) => !columns.has(c)),
    }))
    .filter((t) => t.foreign)
  const authjs = await authjsAccounts(db, dialect, found)
  if (authjs) foreign.push({ table: authjs, why: "Auth.js's: an id column", foreign: true })
  foreign.sort((a, b) => a.table.localeCompare(b.table))
  if (!foreign.length) return
  const list = foreign.map((t) => `"${t.table}" (${t.why})`).join(" and ")
  throw new ForeignTableError(
    `The database has ${foreign.length > 1 ? "tables" : "a table"} ${list} named like Tessera's` +
      ` but not Tessera's, nor Auth.js's: migrate would add Tessera's columns to ${
        foreign.length > 1 ? "them" : "it"
      } or take ${foreign.length > 1 ? "them" : "it"} for its own, so it refuses. Nothing was` +
      " changed. Rename the app's table, or keep Tessera's tables apart: another SQLite file, or" +
      ' on PostgreSQL a schema of their own (options: "-c search_path=auth" in the pool config,' +
      " ?options=-c%20search_path%3Dauth in a URL)." +
      (authjs
        ? " Auth.js's tables are imported, not migrated in place: tessera migrate --from authjs" +
          " --to another database or schema."
        : ""),
  )
}

/**
 * The name of an `accounts` table that is Auth.js's (Prisma's snake_case schema), or undefined.
 * It has every column of Tessera's, plus the `id` Prisma fills itself (a cuid, no default in the
 * database): taken for Tessera's, its table and `sessions` were altered and Tessera could then
 * link no account there. Tessera's `accounts` never has an `id`; one an app added to it is told
 * apart by `0001_init` being recorded (Tessera made the table).
 */
async function authjsAccounts(
  db: Kysely<any>,
  dialect: SqlDialect,
  found: Map<string, Set<string>>,
): Promise<string | undefined> {
  const accounts = [...found].find(([table]) => table.toLowerCase() === "accounts")
  if (!accounts?.[1].has("id")) return undefined
  return (await pendingMigrations(db, dialect)).includes("0001_init") ? accounts[0] : undefined
}

/**
 * A command that only uses Tessera's tables (`purge`) found a database whose migrations have
 * not all run (a new file, a schema never migrated, an older release's): it refuses before
 * touching any row, rather than failing half way on a missing table.
 *
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md#what-migrate-refuses)
 */
export class SchemaNotMigratedError extends Error {
  override name = "SchemaNotMigratedError"
  /** Identifies the error in logs. Stable across releases. */
  readonly type = "SchemaNotMigrated"
}

/**
 * Throws unless `db` holds Tessera's tables, every migration applied ({@link
 * SchemaNotMigratedError}), none of them an app's own ({@link ForeignTableError}). Reads only.
 */
export async function assertMigrated(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await refuseForeignTables(db, dialect)
  const pending = await pendingMigrations(db, dialect)
  if (pending.length)
    throw new SchemaNotMigratedError(
      `The database is not migrated (pending: ${pending.join(", ")}): run tessera migrate` +
        " first. Nothing was changed.",
    )
}

/** The names of the migrations not yet applied. Reads only: creates no table. */
export async function pendingMigrations(db: Kysely<any>, dialect: SqlDialect): Promise<string[]> {
  const migrations = await (await migrator(db, dialect)).getMigrations()
  return migrations.filter((m) => !m.executedAt).map((m) => m.name)
}

async function migrator(
  db: Kysely<any>,
  dialect: SqlDialect,
  options: { inTransaction?: boolean } = {},
): Promise<Migrator> {
  // Kysely looks for its tables in every schema; name ours, or tables of
  // another schema on the search_path (another app, another tenant) would be
  // taken for them.
  const schema =
    dialect === "postgres"
      ? (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db))
          .rows[0]?.schema
      : undefined
  if (dialect === "postgres" && !schema)
    throw new Error("migrate: no schema on the search_path to create tables in")
  return new Migrator({
    db,
    provider: new InCodeMigrationProvider(dialect, options.inTransaction),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    ...(schema ? { migrationTableSchema: schema } : {}),
    // Kysely would open its own transaction (PostgreSQL), which cannot nest in the caller's.
    ...(options.inTransaction ? { disableTransactions: true } : {}),
  })
}

async function runMigrations(
  db: Kysely<any>,
  dialect: SqlDialect,
  options: { inTransaction?: boolean } = {},
): Promise<{ applied: string[] }> {
  const { error, results = [] } = await (await migrator(db, dialect, options)).migrateToLatest()
  if (error) {
    const failed = results.find((r) => r.status === "Error")?.migrationName
    throw redactError(
      new Error(
        `Migration ${failed ?? ""} failed: ${error instanceof Error ? error.message : String(error)}`.replace(
          "  ",
          " ",
        ),
        {
          cause: error,
        },
      ),
    )
  }
  return { applied: results.filter((r) => r.status === "Success").map((r) => r.migrationName) }
}
