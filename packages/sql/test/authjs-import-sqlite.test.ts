/**
 * `tessera migrate --from authjs` on SQLite files: each documented Auth.js
 * layout, built from its DDL and filled as its adapter fills it, imported in
 * place and into another file, then used through `Auth()`.
 */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import Sqlite from "better-sqlite3"
import { Kysely, SqliteDialect, sql } from "kysely"
import { afterAll, describe, expect, test } from "vitest"
import { completeOidcLogin, startOidcProvider } from "@tessera/testing"
import { SqlAdapter, migrations } from "@tessera/sql"

/** Every migration, as the report lists the ones a new database gets. */
const migrationNames = Object.keys(migrations("sqlite")).join(", ")
import { parseDate, toBase64Url } from "../src/import/authjs/convert.js"
import { ImportRefused, importAuthjs } from "../src/import/authjs/index.js"
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
  AGAIN,
  authjs,
  browserWithCookie,
  cli,
  expectWorksInTessera,
  FRESH,
  reportCounts,
  SESSION_COOKIE,
  tesseraConfig,
  withAdapter,
  withKysely,
} from "./authjs-import-helpers.js"
import { sqliteTables } from "./helpers.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-authjs-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const newFile = (name: string) => join(dir, `${++files}-${name}.db`)

const open = (file: string) =>
  new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(file) }) })
const withDb = <T>(file: string, fn: (db: Kysely<any>) => Promise<T>) => withKysely(open(file), fn)

async function authjsFile(layout: LayoutName, seed: Seed): Promise<string> {
  const file = newFile(layout)
  await withDb(file, (db) => createAuthjsDatabase(db, layout, "sqlite", seed))
  return file
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex")

/** Nothing a report prints may be a credential: tokens, hashes of sign-in links. */
function expectNoSecrets(text: string, seed: Seed) {
  const secrets = [
    ...seed.sessions.map((s) => s.sessionToken),
    ...seed.verificationTokens.map((t) => t.token),
    ...seed.accounts.flatMap((a) => [a.access_token, a.refresh_token, a.id_token]),
  ].filter((s): s is string => !!s)
  for (const secret of secrets) expect(text).not.toContain(secret)
}

describe.each(["kysely", "prisma", "drizzle"] as const)("in place: %s layout", (layout) => {
  test("dry run writes nothing; --apply imports beside the Auth.js tables; a second --apply is a no-op", async () => {
    const seed = makeSeed()
    const file = await authjsFile(layout, seed)
    const tables = authjsTables(layout, "sqlite")
    const before = await withDb(file, (db) => dumpTables(db, tables))
    const bytes = sha256(file)

    const dry = await authjs("--sqlite", file)
    expect(dry.err).toBe("")
    expect(dry.code).toBe(0)
    expect(dry.out).toContain("dry run, nothing written")
    expect(dry.out).toContain(`from:    SQLite ${file}`)
    expect(dry.out).toContain("into:    the same database, beside the Auth.js tables")
    expect(dry.out).toContain(`Tessera's tables: to be created (${migrationNames})`)
    expect(dry.out).toMatch(
      layout === "drizzle" ? /layout: +user, account, session/ : /layout: +User, Account, Session/,
    )
    if (layout === "prisma") expect(dry.out).toContain("Prisma migration history found")
    expect(reportCounts(dry.out)).toEqual(FRESH)
    expect(dry.out).toMatch(/sessions: 1 expired/)
    expect(dry.out).toMatch(/verification tokens: 1 unexpired sign-in link: Auth.js stores SHA-256/)
    expect(dry.out).toMatch(/verification tokens: 1 expired sign-in link/)
    expect(dry.out).toContain(
      `users ${seed.ids.bob} (Bob@Example.com), ${seed.ids.bob2} (bob@example.com): e-mails differ only by case`,
    )
    expect(dry.out).toContain("2 session tokens stored as SHA-256")
    expect(dry.out).toContain("token_type lower-cased on 1 account")
    expect(dry.out).toContain("1 passkey credential ID re-encoded as base64url")
    if (layout === "prisma")
      expect(dry.out).toMatch(
        /not carried[^\n]*\n {2}User\.createdAt, User\.updatedAt, Account\.id/,
      )
    expectNoSecrets(dry.out, seed)
    // Not a byte changed, no journal left behind, no table made.
    expect(sha256(file)).toBe(bytes)
    expect(existsSync(`${file}-wal`)).toBe(false)
    expect(sqliteTables(file)).not.toContain("users")

    const applied = await authjs("--sqlite", file, "--apply")
    expect(applied.err).toBe("")
    expect(applied.code).toBe(0)
    expect(applied.out).toContain("applied, in one transaction")
    expect(applied.out).toContain(`Tessera's tables: created (${migrationNames})`)
    expect(reportCounts(applied.out)).toEqual(FRESH)
    expectNoSecrets(applied.out, seed)
    expect(sqliteTables(file)).toEqual(expect.arrayContaining([...TESSERA_TABLES, ...tables]))
    expect(await withDb(file, (db) => dumpTables(db, tables))).toEqual(before)

    await withAdapter(SqlAdapter.sqlite(file), async (adapter) => {
      await expectWorksInTessera(adapter, seed)
      // The expired session did not come along; verification tokens neither (the only one is the
      // passkey challenge the sign-in above recorded as used).
      const sessions = await adapter.db.selectFrom("sessions").select("user_id").execute()
      expect(sessions.filter((s) => s.user_id === seed.ids.bob)).toHaveLength(1)
      // Imported sessions are records Bob can list (and end).
      expect(await adapter.listSessionRecords(seed.ids.bob)).toEqual([
        expect.objectContaining({
          userId: seed.ids.bob,
          id: expect.stringMatching(/^[0-9a-f]{32}$/),
        }),
      ])
      const tokens = await adapter.db
        .selectFrom("verification_tokens")
        .select("identifier")
        .execute()
      expect(tokens.filter((t) => !t.identifier.startsWith("webauthn-used:"))).toEqual([])
    })

    const tessera = await withDb(file, (db) => dumpTables(db, TESSERA_TABLES))
    const again = await authjs("--sqlite", file, "--apply")
    expect(again.code).toBe(0)
    expect(again.out).toContain("applied; nothing new to write")
    expect(again.out).toContain("Tessera's tables: already there")
    expect(reportCounts(again.out)).toEqual(AGAIN)
    expect(await withDb(file, (db) => dumpTables(db, TESSERA_TABLES))).toEqual(tessera)
    expect(await withDb(file, (db) => dumpTables(db, tables))).toEqual(before)
  })
})

describe("an OAuth account carried over signs its user in", () => {
  test("sign-in at the OpenID provider as the same subject lands in the Auth.js user", async () => {
    const seed = makeSeed()
    const file = await authjsFile("prisma", seed)
    expect((await authjs("--sqlite", file, "--apply")).code).toBe(0)
    const idp = await startOidcProvider({
      redirectUris: ["http://localhost:3000/auth/callback/local"],
    })
    const adapter = SqlAdapter.sqlite(file)
    try {
      const config = tesseraConfig(adapter, {
        providers: [
          {
            id: "local",
            name: "Local IdP",
            type: "oidc",
            issuer: idp.issuer,
            clientId: idp.clientId,
            clientSecret: idp.clientSecret,
            dangerouslyAllowInsecureHttpRequests: true,
          } as never,
        ],
      })
      const browser = browserWithCookie(config, "unrelated", "1")
      const csrfToken = await browser.csrfToken()
      const start = await browser.fetch("/auth/signin/local", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken }),
      })
      expect(start.status).toBe(302)
      const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
      const done = await browser.fetch(`${back.url.pathname}${back.url.search}`)
      expect(done.status).toBe(302)
      expect((await browser.session())?.user).toMatchObject({ email: "ada@example.com" })
      const users = await adapter.db.selectFrom("users").select("id").execute()
      expect(users).toHaveLength(seed.users.length) // nobody new
    } finally {
      await adapter.close()
      await idp.stop()
    }
  })
})

describe("Prisma's snake_case layout (users, accounts, sessions)", () => {
  test("in place is refused (Tessera's table names are taken); --to a new file imports", async () => {
    const seed = withoutPasskeys(makeSeed())
    const file = await authjsFile("prisma-snake", seed)
    const bytes = sha256(file)

    const refused = await authjs("--sqlite", file, "--apply")
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(
      /The Auth.js tables users, accounts, sessions have the names of Tessera's tables[\s\S]*--to/,
    )
    expect(refused.out).toBe("")

    const target = join(dir, "snake-target", "auth.db")
    const dry = await authjs("--sqlite", file, "--to", target)
    expect(dry.code).toBe(0)
    expect(dry.out).toContain(`into:    SQLite ${target}`)
    expect(dry.out).toMatch(/layout: +users, accounts, sessions, \.\.\. with snake_case columns/)
    expect(reportCounts(dry.out)).toEqual({
      ...FRESH,
      accounts: [2, 2, 0, 0],
      passkeys: [0, 0, 0, 0],
    })
    expect(existsSync(target)).toBe(false)

    const applied = await authjs("--sqlite", file, `--to=file:${target}`, "--apply")
    expect(applied.code).toBe(0)
    expect(sha256(file)).toBe(bytes) // the source was only read
    await withAdapter(SqlAdapter.sqlite(target), (adapter) =>
      expectWorksInTessera(adapter, seed, { passkeys: false }),
    )
    const again = await authjs("--sqlite", file, "--to", target, "--apply")
    expect(reportCounts(again.out).users).toEqual([4, 0, 4, 0])
  })
})

describe("rows that cannot be carried are reported, and the rest imported", () => {
  test("an e-mail taken in the target, an orphan account, a token Tessera would never read", async () => {
    const seed = makeSeed()
    const file = await authjsFile("drizzle", seed)
    await withDb(file, async (db) => {
      await sql`pragma foreign_keys = off`.execute(db)
      await insertRows(db, "drizzle", "sqlite", {
        accounts: [{ ...seed.accounts[1]!, provider: "gitlab", userId: "nobody" }],
        sessions: [
          { sessionToken: "short", userId: seed.ids.ada, expires: new Date(Date.now() + 3600_000) },
        ],
      })
    })
    // The target already has carol@example.com, as another user.
    const target = newFile("target")
    const existing = SqlAdapter.sqlite(target)
    await existing.migrate()
    await existing.createUser({
      id: "tessera-carol",
      email: "carol@example.com",
      emailVerified: null,
    })
    await existing.close()

    const run = await authjs("--sqlite", file, "--to", target, "--apply")
    expect(run.code).toBe(0)
    expect(reportCounts(run.out)).toEqual({
      users: [4, 3, 0, 1],
      accounts: [4, 3, 0, 1],
      sessions: [4, 2, 0, 2],
      "verification tokens": [2, 0, 0, 2],
      passkeys: [1, 1, 0, 0],
    })
    expect(run.out).toContain(
      `users: 1 its e-mail belongs to another user in Tessera's table: ${seed.ids.carol} (carol@example.com)`,
    )
    expect(run.out).toContain("accounts: 1 its user is not carried: gitlab/12345")
    expect(run.out).toContain("sessions: 1 its token is not one Tessera accepts")
    expect(run.out).not.toContain("short")
    await withAdapter(SqlAdapter.sqlite(target), async (adapter) => {
      expect(await adapter.getUserByEmail("carol@example.com")).toMatchObject({
        id: "tessera-carol",
      })
      expect(await adapter.getUser(seed.ids.carol)).toBeNull()
      await expectWorksInTessera(adapter, seed)
    })
  })
})

describe("refusals", () => {
  test("no Auth.js tables, a missing file, two layouts, a missing column, an app's own users table", async () => {
    const empty = newFile("empty")
    await withDb(empty, (db) => sql`create table notes (id integer)`.execute(db))
    const none = await authjs("--sqlite", empty)
    expect(none.code).toBe(1)
    expect(none.err).toMatch(
      /No Auth.js tables found \(looked for User\/Account, user\/account, users\/accounts\)/,
    )

    const missing = await authjs("--sqlite", join(dir, "nope.db"))
    expect(missing.code).toBe(1)
    expect(missing.err).toContain("No database file at")
    expect(existsSync(join(dir, "nope.db"))).toBe(false)

    const both = await authjsFile("prisma", makeSeed())
    await withDb(both, async (db) => {
      await sql`create table "users" ("id" text primary key, "email" text)`.execute(db)
      await sql`create table "accounts" ("user_id" text, "type" text, "provider" text, "provider_account_id" text)`.execute(
        db,
      )
    })
    const two = await authjs("--sqlite", both)
    expect(two.code).toBe(1)
    expect(two.err).toContain(
      "Found Auth.js-like tables of 2 layouts (User/Account, users/accounts)",
    )

    const noEmail = newFile("no-email")
    await withDb(noEmail, async (db) => {
      await sql`create table "User" ("id" text primary key, "name" text)`.execute(db)
      await sql`create table "Account" ("userId" text, "type" text, "provider" text, "providerAccountId" text)`.execute(
        db,
      )
    })
    const column = await authjs("--sqlite", noEmail)
    expect(column.code).toBe(1)
    expect(column.err).toContain(
      "Table User looks like Auth.js's users table but has no column email",
    )

    const appUsers = await authjsFile("drizzle", makeSeed())
    await withDb(appUsers, (db) =>
      sql`create table "users" ("id" integer primary key, "handle" text)`.execute(db),
    )
    const bytes = sha256(appUsers)
    const taken = await authjs("--sqlite", appUsers, "--apply")
    expect(taken.code).toBe(1)
    expect(taken.err).toContain("The database has a table users that is not Tessera's")
    expect(sha256(appUsers)).toBe(bytes)
  })

  test("a refusal is an ImportRefused with a stable type, as every @tessera/sql error", async () => {
    const empty = newFile("no-authjs")
    await withDb(empty, (db) => sql`create table notes (id integer)`.execute(db))
    const error = await importAuthjs({ from: { kind: "sqlite", path: empty } }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ImportRefused)
    expect(error).toMatchObject({ name: "ImportRefused", type: "ImportRefused" })
    expect((error as Error).message).toMatch(/No Auth.js tables found/)
  })

  test("usage: --from names a known source; --to and --apply need --from", async () => {
    expect((await cli("migrate", "--from", "lucia")).code).toBe(2)
    expect((await cli("migrate", "--apply")).code).toBe(2)
    expect((await cli("migrate", "--to", "x.db")).code).toBe(2)
    expect((await cli("migrate", "--from")).code).toBe(2)
  })
})

describe("conversions", () => {
  test("dates as adapters store them", () => {
    const at = Date.UTC(2024, 4, 1, 10, 0, 0, 123)
    for (const value of [
      new Date(at),
      at,
      String(at),
      "2024-05-01T10:00:00.123Z",
      "2024-05-01 10:00:00.123",
      "2024-05-01 10:00:00.123 +00:00",
      "2024-05-01T12:00:00.123+02:00",
    ])
      expect(parseDate(value, "d")?.valueOf(), String(value)).toBe(at)
    expect(parseDate(Math.floor(at / 1000), "d")?.valueOf()).toBe(at - 123) // epoch seconds
    expect(parseDate(null, "d")).toBeNull()
    expect(() => parseDate("next tuesday", "d")).toThrow(/not a date/)
  })

  test("credential IDs: base64 and base64url, padded or not, to unpadded base64url", () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xbf, 0x01])
    for (const form of ["+/+/AQ==", "+/+/AQ", "-_-_AQ", "-_-_AQ=="])
      expect(toBase64Url(form, "id")).toBe("-_-_AQ")
    expect(toBase64Url(bytes.toString("base64"), "id")).toBe(bytes.toString("base64url"))
    expect(() => toBase64Url("+_mixed", "id")).toThrow(/neither base64 nor base64url/)
    expect(() => toBase64Url("abcde", "id")).toThrow()
  })
})

describe("the Auth.js cookie name", () => {
  test("an app that keeps Auth.js's cookie name keeps its users signed in without a new cookie", async () => {
    const seed = makeSeed()
    const file = await authjsFile("kysely", seed)
    expect((await authjs("--sqlite", file, "--apply")).code).toBe(0)
    await withAdapter(SqlAdapter.sqlite(file), async (adapter) => {
      const config = tesseraConfig(adapter, {
        cookies: { sessionToken: { name: "authjs.session-token" } },
      })
      const browser = browserWithCookie(
        config,
        "authjs.session-token",
        seed.liveSessions[seed.ids.ada]!,
      )
      expect((await browser.session())?.user?.email).toBe("ada@example.com")
      // Under Tessera's default name the same value works too (the README's upgrade path).
      const renamed = browserWithCookie(
        tesseraConfig(adapter),
        SESSION_COOKIE,
        seed.liveSessions[seed.ids.ada]!,
      )
      expect((await renamed.session())?.user?.email).toBe("ada@example.com")
    })
  })

  test("with the default configuration, the Auth.js cookie is moved to Tessera's on the first request", async () => {
    const seed = makeSeed()
    const file = await authjsFile("kysely", seed)
    expect((await authjs("--sqlite", file, "--apply")).code).toBe(0)
    await withAdapter(SqlAdapter.sqlite(file), async (adapter) => {
      const raw = seed.liveSessions[seed.ids.ada]!
      const browser = browserWithCookie(tesseraConfig(adapter), "authjs.session-token", raw)
      expect((await browser.session())?.user?.email).toBe("ada@example.com")
      // The browser now holds Tessera's cookie (same token), and not Auth.js's.
      expect(browser.jar.get(SESSION_COOKIE)).toBe(raw)
      expect(browser.jar.has("authjs.session-token")).toBe(false)
      expect((await browser.session())?.user?.email).toBe("ada@example.com")
    })
  })
})

const dist = fileURLToPath(new URL("../dist/bin.js", import.meta.url))

describe("the built binary", () => {
  test.runIf(existsSync(dist))("node dist/bin.js migrate --from authjs", async () => {
    const seed = makeSeed()
    const file = await authjsFile("drizzle", seed)
    const run = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [dist, "migrate", "--from", "authjs", "--sqlite", file, ...args],
        {
          encoding: "utf8",
          timeout: 20_000,
        },
      )
    const dry = run()
    expect(dry.status, dry.stderr).toBe(0)
    expect(reportCounts(dry.stdout)).toEqual(FRESH)
    const applied = run("--apply")
    expect(applied.status, applied.stderr).toBe(0)
    expect(sqliteTables(file)).toEqual(expect.arrayContaining(TESSERA_TABLES))
  })
})
