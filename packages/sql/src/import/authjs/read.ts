/**
 * Reads the rows of the Auth.js tables a layout names, each as a plain object
 * keyed by Auth.js field names (`emailVerified`, `providerAccountId`, ...),
 * whatever the columns are called.
 *
 * Values come back as the driver gives them; convert.ts makes sense of them.
 * One exception, for PostgreSQL dates: Prisma and Drizzle declare
 * `timestamp without time zone` and write UTC into it, which `pg` would read as
 * local time (hours off on any server not set to UTC). So every timestamp
 * column is read as epoch milliseconds, computed by the server, which takes a
 * zone-less timestamp as UTC.
 * @module
 */
import { sql, type Kysely, type RawBuilder } from "kysely"
import type { SqlDialect } from "../../schema.js"
import type { Kind, Layout, MappedColumn, TableMapping } from "./detect.js"
import { layoutTables } from "./detect.js"

export type SourceRow = Record<string, unknown>
export type SourceRows = Record<Kind, SourceRow[]>

function selection(column: MappedColumn, dialect: SqlDialect): RawBuilder<unknown> {
  if (dialect === "postgres" && /^timestamp|^date$/.test(column.type))
    return sql`(extract(epoch from ${sql.ref(column.column)}) * 1000)::float8`
  return sql`${sql.ref(column.column)}`
}

async function readTable(
  db: Kysely<any>,
  dialect: SqlDialect,
  mapping: TableMapping,
): Promise<SourceRow[]> {
  const fields = Object.entries<MappedColumn>(mapping.fields)
  const key = fields[0]![1].column
  const result = await db
    .selectFrom(mapping.table)
    .select(fields.map(([field, column]) => selection(column, dialect).as(field)))
    // A stable order, so two runs report the same examples.
    .orderBy(sql.ref(key))
    .execute()
  return result
}

/** Every row of every Auth.js table of the layout (absent tables read as empty). */
export async function readSource(
  db: Kysely<any>,
  dialect: SqlDialect,
  layout: Layout,
): Promise<SourceRows> {
  const rows: SourceRows = {
    users: [],
    accounts: [],
    sessions: [],
    verification_tokens: [],
    authenticators: [],
  }
  for (const mapping of layoutTables(layout))
    rows[mapping.kind] = await readTable(db, dialect, mapping)
  return rows
}
