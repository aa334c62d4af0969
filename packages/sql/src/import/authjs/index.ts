/**
 * `tessera migrate --from authjs`: brings an Auth.js database's users, accounts,
 * sessions and passkeys into Tessera's tables, in the same database (beside the
 * Auth.js tables) or another one.
 *
 * How it stays safe to run:
 * - Auth.js tables are only read. A dry run (the default) opens a SQLite source
 *   read-only and reads PostgreSQL in a read-only transaction.
 * - `apply` does everything that writes (Tessera's schema, then the rows) in one
 *   transaction on the target: it lands whole or not at all. In place, the
 *   Auth.js rows are read in that same transaction, so what is written is what
 *   the report counts.
 * - It is idempotent: rows whose keys Tessera's tables hold are skipped, so a
 *   second run writes nothing and reports them as already there.
 * @module
 */
import { realpathSync } from "node:fs"
import { sql, type Kysely } from "kysely"
import {
  describeLocation,
  existingSqliteDatabase,
  postgresDatabase,
  sqliteDatabase,
  type DatabaseLocation,
} from "../../dialects.js"
import {
  lockSchema,
  migrateInTransaction,
  migrations,
  pendingMigrations,
  refuseForeignTables,
} from "../../migrations.js"
import type { SqlDialect } from "../../schema.js"
import {
  blockingTables,
  detectLayout,
  ImportRefused,
  introspect,
  layoutTables,
  type Layout,
} from "./detect.js"
import { noExistingKeys, planImport, type Plan } from "./plan.js"
import { readSource, type SourceRows } from "./read.js"
import { buildReport, type ImportReport } from "./report.js"
import { readExistingKeys, writePlan } from "./write.js"

export { ImportRefused } from "./detect.js"
export { formatReport, type ImportReport } from "./report.js"

export interface AuthjsImportOptions {
  /** The Auth.js database. */
  from: DatabaseLocation
  /** Where Tessera's tables go; default (or the same database): in place. */
  to?: DatabaseLocation
  /** Write; without it, only report what would be written. */
  apply?: boolean
  /** The time sessions are judged expired at (tests). */
  now?: Date
}

interface Opened {
  db: Kysely<any>
  dialect: SqlDialect
}

function sameDatabase(a: DatabaseLocation, b: DatabaseLocation): boolean {
  if (a.kind === "postgres" || b.kind === "postgres")
    return a.kind === "postgres" && b.kind === "postgres" && a.url === b.url
  if (a.path === b.path) return true
  try {
    return realpathSync(a.path) === realpathSync(b.path)
  } catch {
    return false // one of them does not exist yet
  }
}

function exists(path: string): boolean {
  try {
    realpathSync(path)
    return true
  } catch {
    return false
  }
}

/** Runs `fn` on one connection in a transaction: committed for "write", rolled back for "read". */
async function transaction<T>(
  { db, dialect }: Opened,
  mode: "read" | "write",
  fn: (connection: Kysely<any>) => Promise<T>,
): Promise<T> {
  const begin =
    dialect === "sqlite"
      ? // Immediate: take the write lock up front, so no other writer slips in between our reads and writes.
        mode === "write"
        ? "begin immediate"
        : "begin"
      : mode === "write"
        ? "begin"
        : "begin transaction isolation level repeatable read read only"
  return db.connection().execute(async (connection) => {
    await sql.raw(begin).execute(connection)
    try {
      // Runs at once (two deploy jobs, or an import beside `tessera migrate`) go one after the
      // other: Kysely makes its migration tables inside this transaction, and one that lost
      // that race could not recover in it. (SQLite's `begin immediate` already serializes writers.)
      if (mode === "write") await lockSchema(connection, dialect)
      const result = await fn(connection)
      await sql.raw(mode === "write" ? "commit" : "rollback").execute(connection)
      return result
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => {})
      throw error
    }
  })
}

const COLLISION_HELP =
  "Import into another database with --to <file or postgres:// URL> (on PostgreSQL it may be" +
  " the same database with another schema: add ?options=-c%20search_path%3D<schema> to the URL)."

async function readAuthjs(
  connection: Kysely<any>,
  dialect: SqlDialect,
  inPlace: boolean,
): Promise<{ layout: Layout; rows: SourceRows }> {
  const catalog = await introspect(connection, dialect)
  const layout = detectLayout(catalog, dialect)
  if (inPlace) {
    const blocking = blockingTables(catalog, dialect)
    const authjs = new Set(layoutTables(layout).map((t) => t.table))
    const own = blocking.filter((t) => authjs.has(t))
    if (own.length)
      throw new ImportRefused(
        `The Auth.js tables ${own.join(", ")} have the names of Tessera's tables, so Tessera's` +
          ` cannot be created beside them. ${COLLISION_HELP}`,
      )
    if (blocking.length)
      throw new ImportRefused(
        `The database has a table ${blocking.join(", ")} that is not Tessera's, so Tessera's` +
          ` cannot be created beside it. ${COLLISION_HELP}`,
      )
  }
  return { layout, rows: await readSource(connection, dialect, layout) }
}

/** Tessera's side: the schema (created, or what would be), the keys there, the plan, the inserts. */
async function importInto(
  connection: Kysely<any>,
  dialect: SqlDialect,
  rows: SourceRows,
  apply: boolean,
  now: Date,
): Promise<{ migrations: string[]; plan: Plan }> {
  const catalog = await introspect(connection, dialect)
  const blocking = blockingTables(catalog, dialect)
  if (blocking.length)
    throw new ImportRefused(
      `The target database has a table ${blocking.join(", ")} that is not Tessera's; Tessera's` +
        " tables cannot be created there. Choose another target with --to.",
    )
  // A dry run refuses what `--apply` would: a table of the app's named like one of Tessera's.
  await refuseForeignTables(connection, dialect)
  const applied = apply
    ? (await migrateInTransaction(connection, dialect)).applied
    : await pendingMigrations(connection, dialect)
  const existing = await readExistingKeys(
    connection,
    apply ? await introspect(connection, dialect) : catalog,
  )
  const plan = planImport(rows, existing, now)
  if (apply) await writePlan(connection, dialect, plan)
  return { migrations: applied, plan }
}

function open(location: DatabaseLocation, how: "read" | "write" | "create"): Opened {
  if (location.kind === "postgres")
    return { db: postgresDatabase(location.url), dialect: "postgres" }
  return {
    db:
      how === "create"
        ? sqliteDatabase(location.path)
        : existingSqliteDatabase(location.path, { readonly: how === "read" }),
    dialect: "sqlite",
  }
}

/**
 * Imports (with `apply`) or reports what an import would do. Throws
 * `ImportRefused` when the database's layout cannot be told or Tessera's tables
 * cannot be put where asked.
 */
export async function importAuthjs(options: AuthjsImportOptions): Promise<ImportReport> {
  const apply = options.apply === true
  const now = options.now ?? new Date()
  const to = options.to && !sameDatabase(options.from, options.to) ? options.to : undefined
  if (options.from.kind === "sqlite" && !exists(options.from.path))
    throw new ImportRefused(`No database file at ${options.from.path}.`)
  const meta = {
    applied: apply,
    source: describeLocation(options.from),
    ...(to ? { target: describeLocation(to) } : {}),
  }

  const source = open(options.from, apply && !to ? "write" : "read")
  let target: Opened | undefined
  try {
    if (!to) {
      return await transaction(source, apply ? "write" : "read", async (connection) => {
        const { layout, rows } = await readAuthjs(connection, source.dialect, true)
        const result = await importInto(connection, source.dialect, rows, apply, now)
        return buildReport({ ...meta, migrations: result.migrations }, layout, result.plan)
      })
    }
    const { layout, rows } = await transaction(source, "read", (connection) =>
      readAuthjs(connection, source.dialect, false),
    )
    // A dry run into a SQLite file that does not exist yet must not create it.
    if (!apply && to.kind === "sqlite" && !exists(to.path)) {
      const plan = planImport(rows, noExistingKeys(), now)
      return buildReport({ ...meta, migrations: Object.keys(migrations("sqlite")) }, layout, plan)
    }
    const opened = (target = open(to, apply ? "create" : "read"))
    const result = await transaction(opened, apply ? "write" : "read", (connection) =>
      importInto(connection, opened.dialect, rows, apply, now),
    )
    return buildReport({ ...meta, migrations: result.migrations }, layout, result.plan)
  } finally {
    await source.db.destroy().catch(() => {})
    await target?.db.destroy().catch(() => {})
  }
}
