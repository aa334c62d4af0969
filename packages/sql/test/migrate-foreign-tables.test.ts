/**
 * `tessera migrate` (and `adapter.migrate()`) on a database holding an app's own table named
 * like one of Tessera's (`users`, `sessions`, `rate_limits`, ...), on a real SQLite file and the
 * harness's PostgreSQL. Tessera's tables are created only if missing, so before round 22 such a
 * table was kept and altered: Tessera's columns added to the app's `sessions`, its `users` taken
 * for Tessera's. migrate now refuses, naming the table and what to do, and changes nothing; the
 * tables it recognises (its own, and Auth.js's snake_case ones, the same columns) still migrate.
 *
 * `tessera purge` deleted "expired" rows of whatever `sessions` it found (an app's own, with an
 * `expires` column), created an empty file for a mistyped SQLite path, and on a database never
 * migrated failed with `no such table: sessions` after deleting from the tables it had. It now
 * refuses all three, changing nothing.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Sqlite from "better-sqlite3"
import { Kysely, PostgresDialect, SqliteDialect } from "kysely"
import pg from "pg"
import { afterAll, describe, expect, test } from "vitest"
import { SqlAdapter } from "@tessera/sql"
import { createAuthjsDatabase, makeSeed } from "./authjs-fixtures.js"
import { cli, withKysely } from "./authjs-import-helpers.js"
import { postgresSchemas } from "./helpers.js"

const pgs = postgresSchemas("foreign")
const dir = mkdtempSync(join(tmpdir(), "tessera-foreign-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** An app's own tables with Tessera's names: none has Tessera's (or Auth.js's) columns. */
const FOREIGN = {
  // Keyed by `id` with a `user_id` and `expires`: 0001 to 0005 would all "succeed" on it.
  sessions: "create table sessions (id text primary key, user_id text, data text, expires bigint)",
  users: "create table users (id text primary key, username text not null, password_hash text)",
  rate_limits: "create table rate_limits (key text primary key, hits integer)",
}
const ROWS = [
  "insert into sessions values ('s1', 'u1', '{}', 1)",
  "insert into users values ('u1', 'ada', 'x')",
]

/** Everything a migration could change: definitions, indexes, rows. */
function sqliteSnapshot(file: string) {
  const db = new Sqlite(file, { readonly: true })
  try {
    const schema = db.prepare("select type, name, sql from sqlite_master order by name").all()
    const rows = (schema as { type: string; name: string }[])
      .filter((t) => t.type === "table")
      .map((t) => db.prepare(`select * from "${t.name}"`).all())
    return { schema, rows }
  } finally {
    db.close()
  }
}

async function postgresSnapshot(schema: string) {
  const q = async (text: string) => (await pgs.admin.query(text, [schema])).rows
  const columns = await q(`select table_name, column_name, data_type, is_nullable
      from information_schema.columns where table_schema = $1 order by 1, ordinal_position`)
  const indexes = await q(
    "select indexname, indexdef from pg_indexes where schemaname = $1 order by 1",
  )
  const tables = [...new Set(columns.map((c) => c.table_name as string))]
  const rows = []
  for (const t of tables)
    rows.push((await pgs.admin.query(`select * from "${schema}"."${t}" order by 1`)).rows)
  return { columns, indexes, rows }
}

function expectRefusal(run: { code: number; err: string }, tables: string[]) {
  expect(run.code).toBe(1)
  for (const table of tables) expect(run.err).toContain(`"${table}"`)
  expect(run.err).toMatch(/not Tessera's/)
  expect(run.err).toMatch(/Nothing was changed/)
  expect(run.err).toMatch(/rename/i)
  expect(run.err).not.toMatch(/\n\s+at /) // no stack trace
}

/** A new SQLite file holding what `statements` make. */
function sqliteFile(name: string, statements: string[]): string {
  const file = join(dir, name)
  const db = new Sqlite(file)
  db.exec(statements.join(";\n"))
  db.close()
  return file
}

/** `tessera <command>` on `file` is refused, naming `tables`; the file is as it was. */
async function expectSqliteRefusal(command: string, file: string, tables: string[]) {
  const before = sqliteSnapshot(file)
  expectRefusal(await cli(command, "--sqlite", file), tables)
  expect(sqliteSnapshot(file)).toEqual(before)
}

/** A new schema holding what `statements` make. */
async function postgresSchema(name: string, statements: string[]): Promise<string> {
  const schema = await pgs.fresh(name)
  const client = new pg.Client(pgs.poolConfig(schema))
  await client.connect()
  try {
    for (const statement of statements) await client.query(statement)
  } finally {
    await client.end()
  }
  return schema
}

/** `tessera <command>` on `schema` is refused, naming `tables`; the schema is as it was. */
async function expectPostgresRefusal(command: string, schema: string, tables: string[]) {
  const before = await postgresSnapshot(schema)
  expectRefusal(await cli(command, "--postgres", pgs.url(schema)), tables)
  expect(await postgresSnapshot(schema)).toEqual(before)
}

describe("SQLite: a foreign table named like Tessera's", () => {
  test("an app's own sessions and users: migrate refuses, names them, changes nothing", async () => {
    const file = sqliteFile("app.db", [FOREIGN.sessions, FOREIGN.users, ...ROWS])
    await expectSqliteRefusal("migrate", file, ["sessions", "users"])
  })

  test("only sessions foreign, every other table missing: nothing created either", async () => {
    const file = sqliteFile("sessions-only.db", [FOREIGN.sessions, ROWS[0]!])
    await expectSqliteRefusal("migrate", file, ["sessions"])
  })

  test("SQLite names are caseless: an app's USERS is refused too", async () => {
    const file = sqliteFile("upper.db", ['create table "USERS" (id text primary key, login text)'])
    await expectSqliteRefusal("migrate", file, ["USERS"])
  })

  test("adapter.migrate() refuses with a configuration error of its own type", async () => {
    const file = sqliteFile("adapter.db", [FOREIGN.rate_limits])
    const before = sqliteSnapshot(file)
    const adapter = SqlAdapter.sqlite(file)
    try {
      await expect(adapter.migrate()).rejects.toMatchObject({
        name: "ForeignTableError",
        type: "ForeignTable",
        message: expect.stringContaining('"rate_limits"'),
      })
    } finally {
      await adapter.close()
    }
    expect(sqliteSnapshot(file)).toEqual(before)
  })

  // Review 22: taken for Tessera's, Auth.js's live tables were altered (8 columns added to its
  // sessions, the table rebuilt by 0005) and Tessera could then neither link an account nor
  // make a session there (`NOT NULL constraint failed: accounts.id`, Prisma's cuid ids).
  test("Auth.js's snake_case tables (Prisma @map): refused, pointing to the import", async () => {
    const file = join(dir, "authjs-snake.db")
    await withKysely(
      new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(file) }) }),
      (db) => createAuthjsDatabase(db, "prisma-snake", "sqlite", makeSeed()),
    )
    const before = sqliteSnapshot(file)
    const run = await cli("migrate", "--sqlite", file)
    expectRefusal(run, ["accounts"])
    expect(run.err).toMatch(/Auth\.js/)
    expect(run.err).toContain("--from authjs")
    expect(sqliteSnapshot(file)).toEqual(before)
  })

  test("Tessera's own accounts with an extra id column of the app's still migrate", async () => {
    const file = join(dir, "tessera-extra-id.db")
    const adapter = SqlAdapter.sqlite(file)
    try {
      await adapter.migrate()
    } finally {
      await adapter.close()
    }
    const db = new Sqlite(file)
    db.exec("alter table accounts add column id integer")
    db.close()
    const run = await cli("migrate", "--sqlite", file)
    expect(run, run.err).toMatchObject({ code: 0, err: "" })
  })
})

describe("tessera purge on a database that is not Tessera's", () => {
  test("SQLite: an app's own sessions with expired rows: refused, no row deleted", async () => {
    const file = sqliteFile("purge-app.db", [FOREIGN.sessions, ROWS[0]!])
    await expectSqliteRefusal("purge", file, ["sessions"])
  })

  test("SQLite: a mistyped path is refused, and no file is created", async () => {
    const file = join(dir, "no-such", "auth.db")
    const run = await cli("purge", "--sqlite", file)
    expect(run.code).toBe(1)
    expect(run.err).toMatch(/No database file/)
    expect(run.err).toMatch(/tessera migrate/)
    expect(existsSync(join(dir, "no-such"))).toBe(false)
  })

  test("SQLite: a database Tessera never migrated: refused before any delete", async () => {
    // Tessera's sessions (0001's columns) with an expired row, but no other table.
    const file = sqliteFile("purge-partial.db", [
      `create table sessions (session_token text primary key, user_id text not null,
        expires integer not null)`,
      "insert into sessions values ('t', 'u', 1)",
    ])
    const before = sqliteSnapshot(file)
    const run = await cli("purge", "--sqlite", file)
    expect(run.code).toBe(1)
    expect(run.err).toMatch(/not migrated/)
    expect(run.err).toMatch(/tessera migrate/)
    expect(sqliteSnapshot(file)).toEqual(before)
  })

  test("PostgreSQL: an app's own sessions with expired rows: refused, no row deleted", async () => {
    const schema = await postgresSchema("purge", [FOREIGN.sessions, ROWS[0]!])
    await expectPostgresRefusal("purge", schema, ["sessions"])
  })
})

describe("PostgreSQL: a foreign table named like Tessera's", () => {
  test("an app's own sessions, users and rate_limits: refused by name, nothing changed", async () => {
    const schema = await postgresSchema("app", [...Object.values(FOREIGN), ...ROWS])
    await expectPostgresRefusal("migrate", schema, ["sessions", "users", "rate_limits"])
  })

  test("a foreign table in another schema of the search_path is not in the way", async () => {
    const other = await pgs.fresh("other")
    const schema = await pgs.fresh("mine")
    await pgs.admin.query(`create table "${other}".users (id int primary key, login text)`)
    const url = new URL(pgs.server.url)
    url.searchParams.set("options", `-c search_path=${schema},${other}`)
    const run = await cli("migrate", "--postgres", url.href)
    expect(run, run.err).toMatchObject({ code: 0, err: "" })
  })

  test("Auth.js's snake_case tables (Prisma @map): refused, pointing to the import", async () => {
    const schema = await pgs.fresh("snake")
    await withKysely(
      new Kysely<any>({
        dialect: new PostgresDialect({ pool: new pg.Pool(pgs.poolConfig(schema)) }),
      }),
      (db) => createAuthjsDatabase(db, "prisma-snake", "postgres", makeSeed()),
    )
    await expectPostgresRefusal("migrate", schema, ["accounts"])
  })
})
