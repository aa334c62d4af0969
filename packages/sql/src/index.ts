/**
 * `@tessera/sql`: the database adapter for Tessera on Kysely, for SQLite (the
 * embedded default) and PostgreSQL.
 *
 * @example
 * ```ts
 * import { SqlAdapter } from "@tessera/sql"
 *
 * const adapter = SqlAdapter.sqlite("./data/auth.db") // or SqlAdapter.postgres(process.env.DATABASE_URL)
 * await adapter.migrate()
 * const config = { adapter, providers: [...] }
 * ```
 * @module
 */
import type { Kysely } from "kysely"
import type pg from "pg"
import { createAdapterMethods, type SqlAdapterMethods } from "./adapter.js"
import { detectDialect, postgresDatabase, sqliteDatabase } from "./dialects.js"
import { migrate } from "./migrations.js"
import {
  SqlRateLimitStore,
  type SqlRateLimitStoreInstance,
  type SqlRateLimitStoreOptions,
} from "./rate-limit-store.js"
import { purgeExpired, type PurgeResult } from "./purge.js"
import { redactError, secretsOf } from "./redact.js"
import type { Database, SqlDialect } from "./schema.js"

export type * from "./schema.js"
export {
  ForeignTableError,
  migrate,
  migrations,
  MIGRATION_TABLE,
  SchemaNotMigratedError,
  type MigrateOptions,
} from "./migrations.js"
export { isUniqueViolation, type SqlAdapterMethods } from "./adapter.js"
export { redactError } from "./redact.js"
export type { PurgeResult } from "./purge.js"
export {
  SqlRateLimitStore,
  type SqlRateLimitStoreInstance,
  type SqlRateLimitStoreOptions,
} from "./rate-limit-store.js"

/**
 * An adapter with every `Adapter` method, plus the handles to manage it.
 *
 * @see [Auth.js: Kysely adapter](https://authjs.dev/getting-started/adapters/kysely)
 */
export interface SqlAdapterInstance extends SqlAdapterMethods {
  /** The Kysely instance, for your own queries on the same database. */
  readonly db: Kysely<Database>
  readonly dialect: SqlDialect
  /** Deletes expired sessions, verification tokens and rate-limit counters (`npx tessera purge`). */
  purge(): Promise<PurgeResult>
  /** Applies pending migrations (idempotent). */
  migrate(): Promise<{ applied: string[] }>
  /**
   * A rate-limit store on the same connection (the `rate_limits` table), for
   * `createRateLimiter` from `@tessera/core/rate-limit`.
   */
  rateLimitStore(options?: Omit<SqlRateLimitStoreOptions, "dialect">): SqlRateLimitStoreInstance
  /** Closes the database, if the adapter opened it (not a Kysely instance you passed in). */
  close(): Promise<void>
}

/**
 * Options of {@link SqlAdapter}.
 *
 * @see [Auth.js: Kysely adapter](https://authjs.dev/getting-started/adapters/kysely)
 */
export interface SqlAdapterOptions {
  /** Needed only when it cannot be told from the Kysely instance's dialect. */
  dialect?: SqlDialect
}

function build(
  db: Kysely<Database>,
  dialect: SqlDialect,
  secrets: string[],
  owned: boolean,
): SqlAdapterInstance {
  return {
    ...createAdapterMethods(db, { dialect, secrets }),
    db,
    dialect,
    async migrate() {
      try {
        return await migrate(db, { dialect })
      } catch (error) {
        throw redactError(error, secrets)
      }
    },
    rateLimitStore: (options = {}) => SqlRateLimitStore(db, { ...options, dialect, secrets }),
    purge: () => purgeExpired(db, dialect),
    async close() {
      if (owned) await db.destroy()
    },
  }
}

/**
 * The adapter on an existing Kysely instance (its schema must be migrated: see
 * `migrate`). The dialect is detected for Kysely's own Postgres and SQLite
 * dialects; pass it for others.
 *
 * @param db A Kysely instance on SQLite or PostgreSQL, migrated with `migrate`.
 * @param options `dialect`, when Kysely's dialect does not tell it.
 * @see [Auth.js: Kysely adapter](https://authjs.dev/getting-started/adapters/kysely)
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md)
 */
export function SqlAdapter(db: Kysely<any>, options: SqlAdapterOptions = {}): SqlAdapterInstance {
  const dialect = options.dialect ?? detectDialect(db)
  if (!dialect)
    throw new Error(
      'SqlAdapter: cannot tell the database engine; pass { dialect: "sqlite" | "postgres" }',
    )
  return build(db as Kysely<Database>, dialect, [], false)
}

/**
 * SQLite in a file (created with its folder if missing), with WAL and foreign
 * keys on. Default `./data/auth.db`.
 */
SqlAdapter.sqlite = function sqlite(path = "./data/auth.db"): SqlAdapterInstance {
  return build(sqliteDatabase(path), "sqlite", [], true)
}

/**
 * PostgreSQL through a `pg` pool, from a connection string or a `pg.PoolConfig`.
 * The password never appears in errors this adapter throws.
 */
SqlAdapter.postgres = function postgres(config: string | pg.PoolConfig): SqlAdapterInstance {
  return build(postgresDatabase(config), "postgres", secretsOf(config), true)
}
