/**
 * Red team 15: the database password given in the connection string's query
 * (`postgres://app@db/auth?password=...`, which `pg` honours, as libpq does)
 * or in libpq's keyword form (`host=db password=...`), printed by the CLI.
 *
 * The CLI names the database it works on in every line it prints (`PostgreSQL
 * <url>: applied ...`, the import report's `from:`), with the URL's password
 * masked. Before round 15 only a password in the URL's userinfo was: one in
 * the query, or in the keyword form, was printed as given, on success to
 * stdout (CI logs) and on failure to stderr. Against a real PostgreSQL with
 * password authentication (the harness's scram-sha-256 server).
 */
import { Kysely, PostgresDialect } from "kysely"
import pgDriver from "pg"
import { describe, expect, test } from "vitest"
import { main, type CliIO } from "../../src/cli.js"
import { createAuthjsDatabase, makeSeed } from "../authjs-fixtures.js"
import { withKysely } from "../authjs-import-helpers.js"
import { postgresSchemas } from "../helpers.js"

const pg = postgresSchemas("rt15_url")

async function run(argv: string[], env: CliIO["env"] = {}) {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, {
    out: (s) => void out.push(s),
    err: (s) => void err.push(s),
    env,
  })
  return { code, printed: out.join("") + err.join("") }
}

/** The harness server's URL for `schema`, with the password moved from the userinfo to the query. */
function queryPasswordUrl(schema: string): { url: string; password: string } {
  const url = new URL(pg.url(schema))
  const password = decodeURIComponent(url.password)
  url.password = ""
  url.searchParams.set("password", password)
  return { url: url.href, password }
}

describe("red team 15: a password in the connection string's query or keywords is never printed", () => {
  test("migrate and purge on a live database, the password in the query: done, and not printed", async () => {
    const { url, password } = queryPasswordUrl(await pg.fresh("migrate"))
    const migrate = await run(["migrate", "--postgres", url])
    expect(migrate.code).toBe(0)
    expect(migrate.printed).toContain("applied 0001_init")
    expect(migrate.printed).not.toContain(password)
    expect(migrate.printed).toContain("password=***")

    const fromEnv = await run(["purge"], { DATABASE_URL: url })
    expect(fromEnv.code).toBe(0)
    expect(fromEnv.printed).toMatch(/deleted 0 expired sessions/)
    expect(fromEnv.printed).not.toContain(password)
  })

  test("the Auth.js import's report (dry run, in place and into another schema) does not print it either", async () => {
    const schema = await pg.fresh("import")
    await withKysely(
      new Kysely<any>({
        dialect: new PostgresDialect({ pool: new pgDriver.Pool(pg.poolConfig(schema)) }),
      }),
      (db) => createAuthjsDatabase(db, "kysely", "postgres", makeSeed()),
    )
    const { url, password } = queryPasswordUrl(schema)
    const inPlace = await run(["migrate", "--from", "authjs", "--postgres", url])
    expect(inPlace.code).toBe(0)
    expect(inPlace.printed).toContain("Auth.js import: dry run")
    expect(inPlace.printed).not.toContain(password)
    // Into another schema, given by URL: both are named.
    const to = queryPasswordUrl(await pg.fresh("import_to"))
    const both = await run(["migrate", "--from", "authjs", "--postgres", url, "--to", to.url])
    expect(both.code).toBe(0)
    expect(both.printed).toContain("into:    PostgreSQL")
    expect(both.printed).not.toContain(password)
    expect(both.printed).not.toContain(to.password)
  })

  test("a failure (nothing listens) prints neither a query password nor a keyword one", async () => {
    const secret = `Qu3ry-${crypto.randomUUID()}`
    for (const url of [
      `postgres://tessera@127.0.0.1:1/auth?password=${secret}`,
      `postgresql://tessera@127.0.0.1:1/auth?sslmode=disable&password=${encodeURIComponent(secret)}&application_name=x`,
      `postgres://tessera@127.0.0.1:1/auth?PASSWORD=${secret}`,
      `host=127.0.0.1 port=1 user=tessera password=${secret} dbname=auth`,
      `host=127.0.0.1 port=1 password='${secret} with spaces' dbname=auth`,
    ]) {
      const result = await run(["migrate", "--postgres", url])
      expect(result.code, url).toBe(1)
      expect(result.printed, url).not.toContain(secret)
    }
  })
})
