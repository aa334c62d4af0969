/**
 * The SQL adapter and `tessera migrate --from authjs` against what an
 * attacker (or years of Auth.js data) puts in the rows, on SQLite files and a
 * real PostgreSQL:
 *
 * - e-mail lookups are exact: `%` and `_` are not wildcards, another case or a
 *   look-alike (the Kelvin sign) finds nobody;
 * - linking one provider account to two users at once: exactly one wins, the
 *   loser's call fails and leaves nothing behind;
 * - the import, given hostile rows (a megabyte-long name, NULL columns, addresses an
 *   OAuth profile spelt `Ada@Example.com` or with a non-ASCII look-alike),
 *   imports them unchanged and says which addresses Tessera's lookups will
 *   not find, instead of leaving their owners to get a second account.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Sqlite from "better-sqlite3"
import { Kysely, SqliteDialect } from "kysely"
import { afterAll, describe, expect, test } from "vitest"
import { testAccount, testUser } from "@tessera/testing"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { createAuthjsDatabase, insertRows, makeSeed } from "../authjs-fixtures.js"
import { authjs, withKysely } from "../authjs-import-helpers.js"
import { postgresSchemas } from "../helpers.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-rt5-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const pgs = postgresSchemas("tessera_rt5")

const engines: [string, () => Promise<SqlAdapterInstance>][] = [
  ["SQLite", async () => SqlAdapter.sqlite(join(dir, `${++files}.db`))],
  ["PostgreSQL", async () => SqlAdapter.postgres(pgs.poolConfig(await pgs.fresh("rt5")))],
]

describe.each(engines)("SqlAdapter on %s", (_name, open) => {
  async function withAdapter(fn: (adapter: SqlAdapterInstance) => Promise<void>) {
    const adapter = await open()
    try {
      await adapter.migrate()
      await fn(adapter)
    } finally {
      await adapter.close()
    }
  }

  test("getUserByEmail matches exactly: no wildcards, no case folding, no look-alikes", () =>
    withAdapter(async (adapter) => {
      const ada = await adapter.createUser(testUser({ email: "ada_1@example.com" }))
      await adapter.createUser(testUser({ email: "kevin@example.com" }))
      expect(await adapter.getUserByEmail("ada_1@example.com")).toMatchObject({ id: ada.id })
      for (const probe of [
        "%",
        "%@example.com",
        "ada%",
        "ada_1@example.co_",
        "adax1@example.com",
        "ADA_1@example.com",
        "ada_1@example.com ",
        "\u212Aevin@example.com",
        // PostgreSQL text cannot hold a zero byte: nobody has it, rather than a driver error.
        "ada_1@example.com\u0000",
        "\u0000",
      ]) {
        expect(await adapter.getUserByEmail(probe), JSON.stringify(probe)).toBeNull()
      }
    }))

  test("one provider account linked to two users at once: one wins, the other leaves nothing", () =>
    withAdapter(async (adapter) => {
      const [alice, mallory] = await Promise.all([
        adapter.createUser(testUser()),
        adapter.createUser(testUser()),
      ])
      const providerAccountId = crypto.randomUUID()
      const attempts = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          adapter.linkAccount(
            testAccount((i % 2 ? mallory : alice).id, { provider: "github", providerAccountId }),
          ),
        ),
      )
      const won = attempts.filter((a) => a.status === "fulfilled")
      expect(won).toHaveLength(1)
      const rows = await adapter.db
        .selectFrom("accounts")
        .select("user_id")
        .where("provider", "=", "github")
        .where("provider_account_id", "=", providerAccountId)
        .execute()
      expect(rows).toHaveLength(1)
      const owner = await adapter.getUserByAccount({ provider: "github", providerAccountId })
      expect(owner?.id).toBe(rows[0]!.user_id)
    }))
})

describe("tessera migrate --from authjs with hostile rows (SQLite)", () => {
  test("huge values and NULLs import unchanged; addresses Tessera cannot find are reported", async () => {
    const seed = makeSeed()
    const file = join(dir, `${++files}-authjs.db`)
    const ids = {
      big: crypto.randomUUID(),
      none: crypto.randomUUID(),
      mixed: crypto.randomUUID(),
      kelvin: crypto.randomUUID(),
      spaced: crypto.randomUUID(),
    }
    const huge = "A".repeat(1 << 20)
    await withKysely(
      new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(file) }) }),
      async (db) => {
        await createAuthjsDatabase(db, "kysely", "sqlite", seed)
        await insertRows(db, "kysely", "sqlite", {
          users: [
            { id: ids.big, name: huge, email: "big@example.com", emailVerified: null, image: huge },
            {
              id: ids.none,
              name: null,
              email: "none@example.com",
              emailVerified: null,
              image: null,
            },
            {
              id: ids.mixed,
              name: "Grace",
              email: "Grace@Example.com",
              emailVerified: new Date(),
              image: null,
            },
            {
              id: ids.kelvin,
              name: "K",
              email: "\u212Aevin@example.com",
              emailVerified: new Date(),
              image: null,
            },
            {
              id: ids.spaced,
              name: "S",
              email: " sam@example.com",
              emailVerified: null,
              image: null,
            },
          ],
        })
      },
    )
    const run = await authjs("--sqlite", file, "--apply")
    expect(run.err).toBe("")
    expect(run.code).toBe(0)
    // The report names the user, not a megabyte of their name.
    expect(run.out.length).toBeLessThan(20_000)
    for (const [id, email] of [
      [ids.mixed, "Grace@Example.com"],
      [ids.kelvin, "\u212Aevin@example.com"],
      [ids.spaced, " sam@example.com"],
    ] as const) {
      expect(run.out).toContain(`user ${id} (${email}): not as Tessera writes e-mails`)
    }
    expect(run.out).not.toContain(`user ${ids.big} `)
    expect(run.out).not.toContain(`user ${ids.none} `)

    const adapter = SqlAdapter.sqlite(file)
    try {
      expect((await adapter.getUser(ids.big))?.name).toHaveLength(1 << 20)
      expect(await adapter.getUser(ids.none)).toMatchObject({ name: null, image: null })
      // What the report warns about: Tessera's lookups (normalised addresses) miss them.
      expect(await adapter.getUserByEmail("grace@example.com")).toBeNull()
      expect(await adapter.getUserByEmail("kevin@example.com")).toBeNull()
    } finally {
      await adapter.close()
    }
  })
})
