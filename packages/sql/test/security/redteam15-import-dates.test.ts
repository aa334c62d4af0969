/**
 * Red team 15: an Auth.js row whose date is a number past what a JavaScript
 * date holds (±8.64e15 ms: a corrupted row, or a "never expires" sentinel such
 * as 99999999999999999), through `tessera migrate --from authjs` on SQLite.
 *
 * Before round 15 such a number parsed as a date (a finite number) that was
 * no date (`Invalid Date`): the dry run counted the session as one to import,
 * and `--apply` then failed as a whole (`NOT NULL constraint failed:
 * sessions.expires`), so one bad row blocked every other. It is now left
 * behind as unreadable, like any other date that is none; the dry run and
 * `--apply` agree, and the rest is imported.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Sqlite from "better-sqlite3"
import { Kysely, SqliteDialect, sql } from "kysely"
import { afterAll, describe, expect, test } from "vitest"
import { createAuthjsDatabase, makeSeed } from "../authjs-fixtures.js"
import { authjs, reportCounts, withKysely } from "../authjs-import-helpers.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-rt15-dates-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("red team 15: dates past what a JavaScript date holds", () => {
  test("a session expiring at 99999999999999999 and a user verified at 1e16 are left behind; the rest is imported", async () => {
    const file = join(dir, "dates.db")
    const seed = makeSeed()
    await withKysely(
      new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(file) }) }),
      async (db) => {
        await createAuthjsDatabase(db, "kysely", "sqlite", seed)
        const live = seed.liveSessions[seed.ids.ada]!
        await sql`update "Session" set expires = ${"99999999999999999"} where "sessionToken" = ${live}`.execute(
          db,
        )
        await sql`update "User" set "emailVerified" = ${1e16} where id = ${seed.ids.carol}`.execute(
          db,
        )
      },
    )
    const dry = await authjs("--sqlite", file)
    expect(dry.code).toBe(0)
    expect(dry.out).toMatch(/sessions: 1 unreadable: expires is not a date/)
    expect(dry.out).toMatch(/users: 1 unreadable: emailVerified is not a date/)

    const applied = await authjs("--sqlite", file, "--apply")
    expect(applied, applied.err).toMatchObject({ code: 0, err: "" })
    // The same decisions as the dry run: what it counted is what was written.
    const counts = (text: string) =>
      Object.fromEntries(
        Object.entries(reportCounts(text)).map(([k, [found, n]]) => [k, [found, n]]),
      )
    expect(counts(applied.out)).toEqual(counts(dry.out))
    const db = new Sqlite(file, { readonly: true })
    try {
      expect(db.prepare("select count(*) as n from sessions").get()).toEqual({ n: 1 })
      expect(db.prepare("select count(*) as n from users").get()).toEqual({ n: 3 })
    } finally {
      db.close()
    }
  })
})
