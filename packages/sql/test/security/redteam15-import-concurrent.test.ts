/**
 * Red team 15: `tessera migrate --from authjs --apply` run several times at
 * once on one PostgreSQL database (two deploy jobs, a retried CI step), in
 * place and into another schema, on the harness's real server.
 *
 * Each run is one transaction, so nothing was ever written twice or half; but
 * before round 15 all runs but one failed, with a message that pointed nowhere
 * (`Migration failed: current transaction is aborted, commands ignored until
 * end of transaction block`): Kysely creates its migration tables inside the
 * run's transaction, and a run that lost that race could not recover in it.
 * The runs now take one lock first: they go one after the other, the first
 * imports, the others find every row already there, and all exit 0.
 *
 * Round 22: a plain `tessera migrate` run beside an import (a deploy's migrate step while an
 * operator imports) took Kysely's own path, which creates the migration tables before any lock:
 * the import lost that race and failed (nothing written, a rerun worked). Both now take the
 * same lock around their schema work.
 */
import { Kysely, PostgresDialect } from "kysely"
import pgDriver from "pg"
import { describe, expect, test } from "vitest"
import { createAuthjsDatabase, makeSeed } from "../authjs-fixtures.js"
import { authjs, cli, FRESH, reportCounts, withKysely } from "../authjs-import-helpers.js"
import { postgresSchemas, waitingOnLocks } from "../helpers.js"

const pg = postgresSchemas("rt15_imports")

async function authjsSchema(): Promise<string> {
  const schema = await pg.fresh("authjs")
  await withKysely(
    new Kysely<any>({
      dialect: new PostgresDialect({ pool: new pgDriver.Pool(pg.poolConfig(schema)) }),
    }),
    (db) => createAuthjsDatabase(db, "kysely", "postgres", makeSeed()),
  )
  return schema
}

/** Four runs at once of the same command: all succeed; one imported, the others found it all. */
async function expectOneImport(args: string[]) {
  const runs = await Promise.all(Array.from({ length: 4 }, () => authjs(...args, "--apply")))
  for (const run of runs) expect(run, run.err).toMatchObject({ code: 0, err: "" })
  const counts = runs.map((run) => reportCounts(run.out))
  expect(counts.filter((c) => c.users![1] === FRESH.users[1])).toHaveLength(1)
  for (const c of counts.filter((c) => c.users![1] === 0)) {
    expect(c.users).toEqual([4, 0, 4, 0])
    expect(c.sessions).toEqual([3, 0, 2, 1])
  }
}

async function count(schema: string, table: string): Promise<number> {
  const { rows } = await pg.admin.query(`select count(*)::int as n from "${schema}"."${table}"`)
  return rows[0].n as number
}

describe("red team 15: concurrent Auth.js imports on PostgreSQL", () => {
  test("in place: four --apply at once all succeed, the rows land once", async () => {
    const schema = await authjsSchema()
    await expectOneImport(["--postgres", pg.url(schema)])
    expect(await count(schema, "users")).toBe(4)
    expect(await count(schema, "sessions")).toBe(2)
    expect(await count(schema, "tessera_migrations")).toBe(5)
  })

  test("into another schema: four --apply at once all succeed, the rows land once", async () => {
    const source = await authjsSchema()
    const target = await pg.fresh("target")
    await expectOneImport(["--postgres", pg.url(source), "--to", pg.url(target)])
    expect(await count(target, "users")).toBe(4)
    expect(await count(target, "accounts")).toBe(3)
  })
})

/**
 * Runs an import and a plain migrate on `schema` lined up at their race: a transaction of the
 * test's begins creating `tessera_migrations` first, so both stop there (or, once they take one
 * lock, one of them does and the other waits for it), then it rolls back and lets them go.
 */
async function importBesideMigrate(schema: string) {
  const url = new URL(pg.url(schema))
  url.searchParams.set("application_name", "rt22_race")
  const gate = new pgDriver.Client(pg.server.url)
  await gate.connect()
  try {
    await gate.query("begin")
    await gate.query(`create table "${schema}".tessera_migrations (name text primary key)`)
    const runs = Promise.all([
      authjs("--postgres", url.href, "--apply"),
      cli("migrate", "--postgres", url.href),
    ])
    expect(await waitingOnLocks(pg.admin, "rt22_race", 2)).toBe(2)
    await gate.query("rollback")
    return await runs
  } finally {
    await gate.end()
  }
}

describe("round 22: an import and a plain migrate at once on PostgreSQL", () => {
  test("both exit 0, every time; the schema is whole and the rows land once", async () => {
    for (let round = 0; round < 6; round++) {
      const schema = await authjsSchema()
      const [imported, migrated] = await importBesideMigrate(schema)
      expect(imported, `round ${round}: ${imported.err}`).toMatchObject({ code: 0, err: "" })
      expect(migrated, `round ${round}: ${migrated.err}`).toMatchObject({ code: 0, err: "" })
      expect(reportCounts(imported.out).users![1]).toBe(FRESH.users[1])
      expect(await count(schema, "tessera_migrations")).toBe(5)
      expect(await count(schema, "users")).toBe(4)
      expect(await count(schema, "accounts")).toBe(3)
      expect(await count(schema, "sessions")).toBe(2)
    }
  })
})
