/**
 * Which Auth.js tables a database holds, found by introspection (table and
 * column names only; no row is read here).
 *
 * Auth.js's SQL adapters share one data model but name it three ways: the Kysely
 * adapter and the Prisma schema use `User`, `Account`, ... with camelCase
 * columns; the Drizzle schemas use `user`, `account`, ...; Prisma's `@map`
 * example uses `users`, `accounts`, ... with snake_case columns. Apps add their
 * own columns and leave some out, so a layout is matched per logical table and
 * per column, and anything that would make the import a guess (two candidate
 * tables, a required column missing, a column present under two names) is
 * refused with a sentence saying what was found.
 * @module
 */
import { sql, type Kysely } from "kysely"
import { MIGRATION_TABLE } from "../../migrations.js"
import type { SqlDialect } from "../../schema.js"

export interface ColumnInfo {
  name: string
  /** As the engine reports it, lower-cased: `text`, `timestamp without time zone`, `DATETIME` -> `datetime`. */
  type: string
}

/** Every table of the database (PostgreSQL: of the current schema), with its columns in order. */
export type Catalog = Map<string, ColumnInfo[]>

export async function introspect(db: Kysely<any>, dialect: SqlDialect): Promise<Catalog> {
  const rows =
    dialect === "sqlite"
      ? await sql<{ table_name: string; column_name: string; data_type: string }>`
          select m.name as table_name, p.name as column_name, p.type as data_type
          from sqlite_master m join pragma_table_info(m.name) p
          where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\'
          order by m.name, p.cid`.execute(db)
      : await sql<{ table_name: string; column_name: string; data_type: string }>`
          select table_name, column_name, data_type from information_schema.columns
          where table_schema = current_schema()
          order by table_name, ordinal_position`.execute(db)
  const catalog: Catalog = new Map()
  for (const row of rows.rows) {
    let columns = catalog.get(row.table_name)
    if (!columns) catalog.set(row.table_name, (columns = []))
    columns.push({ name: row.column_name, type: String(row.data_type ?? "").toLowerCase() })
  }
  return catalog
}

/** The five kinds of Auth.js rows, named as Tessera's tables. */
export type Kind = "users" | "accounts" | "sessions" | "verification_tokens" | "authenticators"

export const KINDS: readonly Kind[] = [
  "users",
  "accounts",
  "sessions",
  "verification_tokens",
  "authenticators",
]

/**
 * Per kind, each field of the Auth.js model and the column names it goes by
 * (camelCase as the adapters write it, snake_case as `@map` examples write it).
 * `true` marks the fields without which a row cannot be carried at all.
 */
const FIELDS = {
  users: {
    id: [true, "id"],
    name: [false, "name"],
    email: [true, "email"],
    emailVerified: [false, "emailVerified", "email_verified"],
    image: [false, "image"],
  },
  accounts: {
    userId: [true, "userId", "user_id"],
    type: [true, "type"],
    provider: [true, "provider"],
    providerAccountId: [true, "providerAccountId", "provider_account_id"],
    refresh_token: [false, "refresh_token", "refreshToken"],
    access_token: [false, "access_token", "accessToken"],
    expires_at: [false, "expires_at", "expiresAt"],
    token_type: [false, "token_type", "tokenType"],
    scope: [false, "scope"],
    id_token: [false, "id_token", "idToken"],
    session_state: [false, "session_state", "sessionState"],
  },
  sessions: {
    sessionToken: [true, "sessionToken", "session_token"],
    userId: [true, "userId", "user_id"],
    expires: [true, "expires"],
  },
  verification_tokens: {
    identifier: [true, "identifier"],
    token: [true, "token"],
    expires: [true, "expires"],
  },
  authenticators: {
    credentialID: [true, "credentialID", "credentialId", "credential_id"],
    userId: [true, "userId", "user_id"],
    providerAccountId: [true, "providerAccountId", "provider_account_id"],
    credentialPublicKey: [true, "credentialPublicKey", "credential_public_key"],
    counter: [true, "counter"],
    credentialDeviceType: [true, "credentialDeviceType", "credential_device_type"],
    credentialBackedUp: [true, "credentialBackedUp", "credential_backed_up"],
    transports: [false, "transports"],
  },
} as const satisfies Record<Kind, Record<string, readonly [boolean, ...string[]]>>

export type FieldOf<K extends Kind> = keyof (typeof FIELDS)[K] & string

/** Dates are read differently per column type (see read.ts). */
export interface MappedColumn {
  column: string
  type: string
}

export interface TableMapping<K extends Kind = Kind> {
  kind: K
  table: string
  /** Auth.js field -> the column holding it; optional fields may be absent. */
  fields: Partial<Record<FieldOf<K>, MappedColumn>>
  /** Columns Tessera has no place for (an app's own, `createdAt`, Prisma's `id`, ...). */
  extra: string[]
}

interface LayoutSpec {
  id: "pascal" | "drizzle" | "snake"
  label: string
  tables: Record<Kind, readonly string[]>
}

/** The documented layouts, and the table names each may use per kind. */
const LAYOUTS: readonly LayoutSpec[] = [
  {
    id: "pascal",
    label:
      "User, Account, Session, ... with camelCase columns (Auth.js Kysely adapter, Prisma schema)",
    tables: {
      users: ["User"],
      accounts: ["Account"],
      sessions: ["Session"],
      verification_tokens: ["VerificationToken"],
      authenticators: ["Authenticator"],
    },
  },
  {
    id: "drizzle",
    label: "user, account, session, ... with camelCase columns (Auth.js Drizzle schema)",
    tables: {
      users: ["user"],
      accounts: ["account"],
      sessions: ["session"],
      verification_tokens: ["verificationToken"],
      authenticators: ["authenticator"],
    },
  },
  {
    id: "snake",
    label: "users, accounts, sessions, ... with snake_case columns (Prisma schema with @map)",
    tables: {
      users: ["users"],
      accounts: ["accounts"],
      sessions: ["sessions"],
      verification_tokens: [
        "verification_tokens",
        "verification_token",
        "verificationtokens",
        "verificationTokens",
      ],
      authenticators: ["authenticators"],
    },
  },
]

/** Tessera's own tables, as `migrate` creates them. */
const TESSERA_TABLES: readonly string[] = KINDS

export interface Layout {
  id: LayoutSpec["id"]
  label: string
  /** The tool whose migration history lies beside the tables, when one does. */
  tool?: "Prisma" | "Kysely" | "Drizzle"
  users: TableMapping<"users">
  accounts: TableMapping<"accounts">
  sessions?: TableMapping<"sessions">
  verification_tokens?: TableMapping<"verification_tokens">
  authenticators?: TableMapping<"authenticators">
}

/**
 * The import will not guess: the message says what was found and what to do (the
 * command prints it and exits 1).
 */
export class ImportRefused extends Error {
  override name = "ImportRefused"
  /** Identifies the error in logs. Stable across releases. */
  readonly type = "ImportRefused"
}

/**
 * Tables with Tessera's names that Tessera made: `tessera_migrations` records its
 * schema and the table has Tessera's columns. Those are never Auth.js tables.
 */
function tesseraOwned(catalog: Catalog): Set<string> {
  const owned = new Set<string>()
  if (!findTable(catalog, MIGRATION_TABLE)) return owned
  for (const kind of KINDS) {
    const table = findTable(catalog, kind)
    if (table && missingTesseraColumns(catalog, table, kind).length === 0) owned.add(table)
  }
  return owned
}

const TESSERA_COLUMNS: Record<Kind, readonly string[]> = {
  users: ["id", "name", "email", "email_verified", "image"],
  accounts: ["user_id", "type", "provider", "provider_account_id", "refresh_token", "access_token"],
  sessions: ["session_token", "user_id", "expires"],
  verification_tokens: ["identifier", "token", "expires"],
  authenticators: ["credential_id", "user_id", "credential_public_key", "counter", "transports"],
}

function missingTesseraColumns(catalog: Catalog, table: string, kind: Kind): string[] {
  const names = new Set(catalog.get(table)?.map((c) => c.name))
  return TESSERA_COLUMNS[kind].filter((c) => !names.has(c))
}

/**
 * The catalog's own spelling of `name`. SQLite compares table names without
 * regard to case (`User` and `user` are one table there); PostgreSQL does not.
 */
function findTable(catalog: Catalog, name: string, caseless = false): string | undefined {
  if (catalog.has(name)) return name
  if (!caseless) return undefined
  const lower = name.toLowerCase()
  return [...catalog.keys()].find((t) => t.toLowerCase() === lower)
}

function mapTable<K extends Kind>(kind: K, table: string, columns: ColumnInfo[]): TableMapping<K> {
  const byName = new Map(columns.map((c) => [c.name, c]))
  const fields: Partial<Record<FieldOf<K>, MappedColumn>> = {}
  const used = new Set<string>()
  const missing: string[] = []
  for (const [field, spec] of Object.entries(FIELDS[kind]) as [
    FieldOf<K>,
    readonly [boolean, ...string[]],
  ][]) {
    const [required, ...names] = spec
    const present = names.filter((n) => byName.has(n))
    if (present.length > 1)
      throw new ImportRefused(
        `Table ${table} has both ${present.join(" and ")}: cannot tell which holds ${field}.`,
      )
    const name = present[0]
    if (name === undefined) {
      if (required) missing.push(names.join(" or "))
      continue
    }
    fields[field] = { column: name, type: byName.get(name)!.type }
    used.add(name)
  }
  if (missing.length)
    throw new ImportRefused(
      `Table ${table} looks like Auth.js's ${kind} table but has no column ${missing.join(", no column ")}.`,
    )
  return { kind, table, fields, extra: columns.map((c) => c.name).filter((c) => !used.has(c)) }
}

/**
 * The Auth.js layout of a database, or `ImportRefused` when there is none, or
 * more than one, to be found.
 */
export function detectLayout(catalog: Catalog, dialect: SqlDialect): Layout {
  const owned = tesseraOwned(catalog)
  const candidates = LAYOUTS.map((spec) => {
    const tables: Partial<Record<Kind, string>> = {}
    for (const kind of KINDS) {
      const found = spec.tables[kind]
        .map((name) => findTable(catalog, name))
        .filter((t): t is string => t !== undefined && !owned.has(t))
      if (found.length > 1)
        throw new ImportRefused(
          `Found both ${found.join(" and ")}: cannot tell which is Auth.js's ${kind} table.`,
        )
      if (found[0]) tables[kind] = found[0]
    }
    return { spec, tables }
  }).filter((c) => c.tables.users || c.tables.accounts)

  const complete = candidates.filter((c) => c.tables.users && c.tables.accounts)
  if (complete.length > 1)
    throw new ImportRefused(
      `Found Auth.js-like tables of ${complete.length} layouts (${complete
        .map((c) => `${c.tables.users}/${c.tables.accounts}`)
        .join(", ")}): cannot tell which one the app uses.`,
    )
  const chosen = complete[0]
  if (!chosen) {
    const partial = candidates[0]
    if (partial)
      throw new ImportRefused(
        `Found ${partial.tables.users ?? partial.tables.accounts} but no ${
          partial.tables.users ? partial.spec.tables.accounts[0] : partial.spec.tables.users[0]
        } table: an Auth.js database has both users and accounts.`,
      )
    const looked = LAYOUTS.map((l) => `${l.tables.users[0]}/${l.tables.accounts[0]}`).join(", ")
    const where = dialect === "postgres" ? " in the current schema" : ""
    throw new ImportRefused(
      `No Auth.js tables found${where} (looked for ${looked}).` +
        (owned.size ? " The database holds Tessera's tables only." : ""),
    )
  }

  const map = <K extends Kind>(kind: K) => {
    const table = chosen.tables[kind]
    return table ? mapTable(kind, table, catalog.get(table)!) : undefined
  }
  const tool = findTable(catalog, "_prisma_migrations")
    ? "Prisma"
    : findTable(catalog, "kysely_migration")
      ? "Kysely"
      : findTable(catalog, "__drizzle_migrations")
        ? "Drizzle"
        : undefined
  const layout: Layout = {
    id: chosen.spec.id,
    label: chosen.spec.label,
    ...(tool ? { tool } : {}),
    users: map("users")!,
    accounts: map("accounts")!,
  }
  for (const kind of ["sessions", "verification_tokens", "authenticators"] as const) {
    const mapping = map(kind)
    if (mapping) (layout as unknown as Record<string, unknown>)[kind] = mapping
  }
  return layout
}

/** The Auth.js tables of a layout, in import order. */
export function layoutTables(layout: Layout): TableMapping[] {
  return KINDS.map((k) => layout[k]).filter((t): t is TableMapping => t !== undefined)
}

/**
 * What stands in the way of Tessera's tables in `catalog`: a table with one of
 * their names that Tessera did not make (an Auth.js table of the snake_case
 * layout, or an app's own `users`). `migrate` creates tables only if missing,
 * so it would leave such a table in place and the import would write into it.
 */
export function blockingTables(catalog: Catalog, dialect: SqlDialect): string[] {
  const owned = tesseraOwned(catalog)
  return TESSERA_TABLES.map((name) => findTable(catalog, name, dialect === "sqlite")).filter(
    (t): t is string => t !== undefined && !owned.has(t),
  )
}
