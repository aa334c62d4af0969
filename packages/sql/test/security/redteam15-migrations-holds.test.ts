/**
 * Red team 15, what held: `tessera migrate` against the database states an
 * operator meets, on a real PostgreSQL (the harness's server) and SQLite files.
 *
 * - Several `tessera migrate` at once on one new PostgreSQL schema (each its
 *   own connection, as several deploys starting together): all succeed, every
 *   migration is applied and recorded exactly once (Kysely's advisory lock).
 *   (Several processes on one SQLite file: cli.test.ts.)
 * - A migration failing half way (a hand-made `sessions` table that 0003
 *   cannot fill on PostgreSQL, one whose definition 0005 cannot rewrite on
 *   SQLite): exit 1 with the migration's name, and nothing of the run is left,
 *   not even the tables of the migrations before it that succeeded, nor their
 *   records; once the table is fixed, the same command applies everything.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Sqlite from "better-sqlite3"
import { afterAll, describe, expect, test } from "vitest"
import { migrations } from "@tessera/sql"
import { main } from "../../src/cli.js"
import { postgresSchemas, sqliteTables } from "../helpers.js"

const pg = postgresSchemas("rt15_migrate")
const dir = mkdtempSync(join(tmpdir(), "tessera-rt15-migrate-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const ALL = Object.keys(migrations("postgres"))

async function run(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, {
    out: (s) => void out.push(s),
    err: (s) => void err.push(s),
    env: {},
  })
  return { code, out: out.join(""), err: err.join("") }
}

async function tablesIn(schema: string): Promise<string[]> {
  const { rows } = await pg.admin.query(
    "select table_name from information_schema.tables where table_schema = $1 order by 1",
    [schema],
  )
  return rows.map((r) => r.table_name as string)
}

describe("red team 15: migrations under concurrency and failure (held)", () => {
  test("PostgreSQL: six `tessera migrate` at once on a new schema all succeed; each migration recorded once", async () => {
    const schema = await pg.fresh("race")
    const url = pg.url(schema)
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => run("migrate", "--postgres", url)),
    )
    for (const r of runs) expect(r, r.err).toMatchObject({ code: 0, err: "" })
    // One of them applied everything; the others found nothing to do.
    expect(runs.filter((r) => r.out.includes(`applied ${ALL.join(", ")}`))).toHaveLength(1)
    expect(runs.filter((r) => r.out.includes("already up to date"))).toHaveLength(5)
    const { rows } = await pg.admin.query(
      `select name, count(*)::int as n from "${schema}".tessera_migrations group by name order by name`,
    )
    expect(rows).toEqual(ALL.map((name) => ({ name, n: 1 })))
  })

  test("PostgreSQL: 0003 failing half way leaves nothing of the run; the rerun applies everything", async () => {
    const schema = await pg.fresh("half")
    // A `sessions` made by hand (0001 keeps it: `if not exists`) whose `id` 0003 cannot fill.
    await pg.admin.query(
      `create table "${schema}".sessions (session_token text primary key, user_id text not null,
        expires timestamptz not null, id integer)`,
    )
    await pg.admin.query(
      `insert into "${schema}".sessions values ('t', 'u', now() + interval '1 day', null)`,
    )
    const failed = await run("migrate", "--postgres", pg.url(schema))
    expect(failed.code).toBe(1)
    expect(failed.err).toMatch(/Migration 0003_session_records failed/)
    // Not even 0001's and 0002's tables, nor the record that they ran: since round 22 not even
    // Kysely's own two tables (made inside the run's transaction, after the schema lock).
    expect(await tablesIn(schema)).toEqual(["sessions"])
    const { rows } = await pg.admin.query(
      `select column_name from information_schema.columns where table_schema = $1 and table_name = 'sessions' order by 1`,
      [schema],
    )
    expect(rows.map((r) => r.column_name)).toEqual(["expires", "id", "session_token", "user_id"])

    await pg.admin.query(`alter table "${schema}".sessions alter column id type text`)
    const again = await run("migrate", "--postgres", pg.url(schema))
    expect(again).toMatchObject({ code: 0, err: "" })
    expect(again.out).toContain(`applied ${ALL.join(", ")}`)
    const session = await pg.admin.query(`select id, created_at from "${schema}".sessions`)
    expect(session.rows[0].id).toMatch(/^[0-9a-f]{32}$/)
    expect(session.rows[0].created_at).toBeInstanceOf(Date)
  })

  test("SQLite: 0005 failing half way leaves the file as it was; the rerun applies everything", async () => {
    const file = join(dir, "half.db")
    const db = new Sqlite(file)
    // A hand-made `sessions` (bracket-quoted name) with the key to users 0005 drops,
    // in a definition 0005 does not rewrite.
    db.exec(`create table [sessions] (session_token text primary key,
      user_id text not null references users (id) on delete cascade, expires integer not null)`)
    db.pragma("foreign_keys = off")
    db.exec(`insert into sessions values ('t', 'u', 1)`)
    db.close()
    const failed = await run("migrate", "--sqlite", file)
    expect(failed.code).toBe(1)
    expect(failed.err).toMatch(/Migration 0005_sessions_without_user_key failed/)
    expect(sqliteTables(file)).toEqual(["sessions"])
    expect(failed.err).toMatch(/unexpected table definition/)
    const check = new Sqlite(file)
    const columns = check.prepare("select name from pragma_table_info('sessions')").all()
    check.exec("drop table sessions")
    check.exec(`create table sessions (session_token text primary key,
      user_id text not null references users (id) on delete cascade, expires integer not null)`)
    check.close()
    expect(columns).toHaveLength(3)

    const again = await run("migrate", "--sqlite", file)
    expect(again).toMatchObject({ code: 0, err: "" })
    expect(again.out).toContain(`applied ${ALL.join(", ")}`)
  })
})
