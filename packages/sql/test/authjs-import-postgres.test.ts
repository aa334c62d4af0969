/**
 * `tessera migrate --from authjs` on PostgreSQL: the documented Auth.js layouts
 * built in schemas of a real server, imported in place, into another schema of
 * the same database, and into a SQLite file, then used through `Auth()`.
 *
 * The process runs in a zone other than UTC: Prisma and Drizzle store UTC in
 * `timestamp without time zone` columns, which a driver reading them as local
 * time would shift by hours.
 */
process.env.TZ = "America/New_York"

import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Sqlite from "better-sqlite3"
import pg from "pg"
import { Kysely, PostgresDialect, SqliteDialect } from "kysely"
import { afterAll, describe, expect, test } from "vitest"
import { SqlAdapter, migrations } from "@tessera/sql"

/** Every migration, as the report lists the ones a new database gets. */
const migrationNames = Object.keys(migrations("sqlite")).join(", ")
import { hashSessionToken } from "../src/import/authjs/convert.js"
import {
  authjsTables,
  createAuthjsDatabase,
  dumpTables,
  insertRows,
  makeSeed,
  TESSERA_TABLES,
  withoutPasskeys,
  type LayoutName,
  type Seed,
} from "./authjs-fixtures.js"
import {
  authjs,
  expectWorksInTessera,
  FRESH,
  reportCounts,
  withAdapter,
  withKysely,
} from "./authjs-import-helpers.js"
import { postgresSchemas } from "./helpers.js"

const pgs = postgresSchemas("authjs")
const freshSchema = pgs.fresh
const urlFor = (schema: string) => pgs.url(schema)
const dir = mkdtempSync(join(tmpdir(), "tessera-authjs-pg-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const withDb = <T>(schema: string, fn: (db: Kysely<any>) => Promise<T>) =>
  withKysely(
    new Kysely<any>({
      dialect: new PostgresDialect({ pool: new pg.Pool(pgs.poolConfig(schema)) }),
    }),
    fn,
  )

async function authjsSchema(layout: LayoutName, seed: Seed): Promise<string> {
  const schema = await freshSchema(layout.replace("-", "_"))
  await withDb(schema, (db) => createAuthjsDatabase(db, layout, "postgres", seed))
  return schema
}

async function tablesIn(schema: string): Promise<string[]> {
  const result = await pgs.admin.query(
    "select table_name from information_schema.tables where table_schema = $1 order by table_name",
    [schema],
  )
  return result.rows.map((r) => r.table_name as string)
}

describe.each(["prisma", "kysely"] as const)("in place: %s layout", (layout) => {
  test("dry run writes nothing; --apply imports; sessions, accounts and passkeys work; a second --apply is a no-op", async () => {
    const seed = makeSeed()
    const schema = await authjsSchema(layout, seed)
    const url = urlFor(schema)
    const tables = authjsTables(layout, "postgres")
    const before = await withDb(schema, (db) => dumpTables(db, tables))
    const allTables = await tablesIn(schema)

    const dry = await authjs("--postgres", url)
    expect(dry.err).toBe("")
    expect(dry.code).toBe(0)
    expect(dry.out).toContain("dry run, nothing written")
    expect(dry.out).toContain("PostgreSQL postgres://tessera:***@")
    expect(dry.out).not.toContain(decodeURIComponent(new URL(pgs.server.url).password))
    expect(reportCounts(dry.out)).toEqual(FRESH)
    expect(await tablesIn(schema)).toEqual(allTables)

    const applied = await authjs("--postgres", url, "--apply")
    expect(applied.err).toBe("")
    expect(applied.code).toBe(0)
    expect(applied.out).toContain(`Tessera's tables: created (${migrationNames})`)
    expect(reportCounts(applied.out)).toEqual(FRESH)
    expect(await tablesIn(schema)).toEqual(expect.arrayContaining(TESSERA_TABLES))
    expect(await withDb(schema, (db) => dumpTables(db, tables))).toEqual(before)

    await withAdapter(SqlAdapter.postgres(url), async (adapter) => {
      // Expiry kept to the millisecond, whatever the zone of the process (read before
      // the session check below slides it forward).
      const bob = await adapter.getSessionAndUser(
        hashSessionToken(seed.liveSessions[seed.ids.bob]!),
      )
      expect(bob?.session.expires).toEqual(seed.sessions[1]!.expires)
      await expectWorksInTessera(adapter, seed)
    })

    const tessera = await withDb(schema, (db) => dumpTables(db, TESSERA_TABLES))
    const again = await authjs("--postgres", url, "--apply")
    expect(again.code).toBe(0)
    expect(again.out).toContain("nothing new to write")
    expect(reportCounts(again.out)).toMatchObject({ users: [4, 0, 4, 0], passkeys: [1, 0, 1, 0] })
    expect(await withDb(schema, (db) => dumpTables(db, TESSERA_TABLES))).toEqual(tessera)
    expect(await withDb(schema, (db) => dumpTables(db, tables))).toEqual(before)
  })
})

describe("into another database", () => {
  test("Drizzle on PostgreSQL into a new SQLite file", async () => {
    const seed = makeSeed()
    const schema = await authjsSchema("drizzle", seed)
    const target = join(dir, "from-drizzle.db")
    const result = await authjs("--postgres", urlFor(schema), "--to", target, "--apply")
    expect(result.err).toBe("")
    expect(reportCounts(result.out)).toEqual(FRESH)
    expect(await tablesIn(schema)).not.toContain("users")
    await withAdapter(SqlAdapter.sqlite(target), async (adapter) => {
      await expectWorksInTessera(adapter, seed)
    })
  })

  test("Prisma's snake_case layout: refused in place, imported into another schema of the same database", async () => {
    const seed = withoutPasskeys(makeSeed())
    const schema = await authjsSchema("prisma-snake", seed)
    const before = await withDb(schema, (db) =>
      dumpTables(db, authjsTables("prisma-snake", "postgres")),
    )

    const refused = await authjs("--postgres", urlFor(schema), "--apply")
    expect(refused.code).toBe(1)
    expect(refused.err).toContain("have the names of Tessera's tables")
    expect(refused.err).toContain("search_path")

    const tessera = await freshSchema("tessera")
    const to = urlFor(tessera)
    const result = await authjs("--postgres", urlFor(schema), "--to", to, "--apply")
    expect(result.err).toBe("")
    expect(result.out).toMatch(/layout: +users, accounts, sessions/)
    expect(reportCounts(result.out)).toMatchObject({ users: [4, 4, 0, 0], accounts: [2, 2, 0, 0] })
    expect(
      await withDb(schema, (db) => dumpTables(db, authjsTables("prisma-snake", "postgres"))),
    ).toEqual(before)
    await withAdapter(SqlAdapter.postgres(to), async (adapter) => {
      await expectWorksInTessera(adapter, seed, { passkeys: false })
    })
  })
})

describe("one transaction", () => {
  test("a failing insert leaves no row behind", async () => {
    const seed = makeSeed()
    const source = await authjsSchema("kysely", seed)
    const target = await freshSchema("atomic_rows")
    const tessera = SqlAdapter.postgres(urlFor(target))
    await tessera.migrate()
    await tessera.close()
    // Passkeys go in last: refuse them, after users, accounts and sessions are written.
    await pgs.admin.query(`create function "${target}".refuse() returns trigger language plpgsql
      as $$ begin raise exception 'refused by the test'; end $$`)
    await pgs.admin.query(`create trigger refuse before insert on "${target}".authenticators
      for each row execute function "${target}".refuse()`)

    const result = await authjs("--postgres", urlFor(source), "--to", urlFor(target), "--apply")
    expect(result.code).toBe(1)
    expect(result.err).toContain("refused by the test")
    expect(result.err).not.toContain(decodeURIComponent(new URL(pgs.server.url).password))
    for (const table of ["users", "accounts", "sessions", "authenticators"]) {
      const { rows } = await pgs.admin.query(
        `select count(*)::int as n from "${target}"."${table}"`,
      )
      expect(rows[0].n, table).toBe(0)
    }
  })

  test("Tessera's schema is created in the same transaction: a failure leaves no table either", async () => {
    // PostgreSQL stores no NUL character in text; SQLite does, so this user fails on insert.
    const seed = makeSeed()
    const file = join(dir, "nul.db")
    await withKysely(
      new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(file) }) }),
      async (db) => {
        await createAuthjsDatabase(db, "drizzle", "sqlite", seed)
        await insertRows(db, "drizzle", "sqlite", {
          users: [
            {
              id: "u-nul",
              name: "Eve\u0000",
              email: "eve@example.com",
              emailVerified: null,
              image: null,
            },
          ],
        })
      },
    )
    const target = await freshSchema("atomic_schema")
    const result = await authjs("--sqlite", file, "--to", urlFor(target), "--apply")
    expect(result.code).toBe(1)
    expect(result.err).toMatch(/0x00/)
    expect(await tablesIn(target)).toEqual([])
  })
})
