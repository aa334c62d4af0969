import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Sqlite from "better-sqlite3"
import { Kysely, SqliteDialect, sql } from "kysely"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { testAccount, testUser } from "@tessera/testing"
import { runAdapterTests, runRateLimitStoreTests } from "@tessera/testing/suites"
import { SqlAdapter, migrate, migrations, type Database } from "@tessera/sql"
import { firstSignInRace, queryLog, rateLimitWorker, rawDb } from "./helpers.js"

const dir = mkdtempSync(join(tmpdir(), "tessera-sqlite-"))
const file = join(dir, "nested", "auth.db")
const adapter = SqlAdapter.sqlite(file)

afterAll(async () => {
  await adapter.close()
  rmSync(dir, { recursive: true, force: true })
})

runAdapterTests({
  name: "SqlAdapter (SQLite) conformance",
  adapter,
  db: {
    connect: async () => {
      await adapter.migrate()
    },
    ...rawDb(adapter.db),
  },
})

// The store's clock runs with the real one (the worker process uses the real
// one), moved forward by the expiry test.
let offset = 0
runRateLimitStoreTests({
  name: "SqlRateLimitStore (SQLite file) conformance",
  createStore: async () => {
    await adapter.migrate()
    return adapter.rateLimitStore({ now: () => Date.now() + offset })
  },
  advanceClock: (seconds) => void (offset += seconds * 1000),
  crossProcess: rateLimitWorker({ TESSERA_SQLITE_FILE: file }),
})

describe("SqlAdapter on SQLite", () => {
  beforeAll(async () => {
    await adapter.migrate()
  })

  test("opens a real file with WAL and foreign keys on", async () => {
    const journal = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(adapter.db)
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(adapter.db)
    expect(journal.rows[0]?.journal_mode).toBe("wal")
    expect(fk.rows[0]?.foreign_keys).toBe(1)
  })

  test("migrate is idempotent", async () => {
    expect(await adapter.migrate()).toEqual({ applied: [] })
    expect(await migrate(adapter.db)).toEqual({ applied: [] })
    const tables = await sql<{
      name: string
    }>`select name from sqlite_master where type = 'table' order by name`.execute(adapter.db)
    expect(tables.rows.map((r) => r.name)).toEqual(
      expect.arrayContaining([
        "accounts",
        "authenticators",
        "sessions",
        "users",
        "verification_tokens",
        "tessera_migrations",
      ]),
    )
  })

  test("dates are stored as integer milliseconds and read back as Dates", async () => {
    const user = testUser({ emailVerified: new Date(1_700_000_000_123) })
    await adapter.createUser(user)
    const expires = new Date(Date.now() + 60_000)
    await adapter.createSession({ sessionToken: `t-${user.id}`, userId: user.id, expires })
    const row = await sql<{
      ev: number
      t: string
    }>`select email_verified as ev, typeof(email_verified) as t from users where id = ${user.id}`.execute(
      adapter.db,
    )
    expect(row.rows[0]).toEqual({ ev: 1_700_000_000_123, t: "integer" })
    const found = await adapter.getSessionAndUser(`t-${user.id}`)
    expect(found?.session.expires).toEqual(expires)
    expect(found?.user.emailVerified).toEqual(new Date(1_700_000_000_123))
  })

  test("accounts' foreign key cascades in the schema itself (sessions': none since 0005)", async () => {
    const user = testUser()
    await adapter.createUser(user)
    await adapter.linkAccount(testAccount(user.id))
    await adapter.createSession({
      sessionToken: `c-${user.id}`,
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    })
    await sql`delete from users where id = ${user.id}`.execute(adapter.db)
    const left = await sql<{
      n: number
    }>`select count(*) as n from accounts where user_id = ${user.id}`.execute(adapter.db)
    expect(left.rows[0]?.n).toBe(0)
    // The session row stays, but no longer signs anyone in: its user is gone.
    expect(await adapter.getSessionAndUser(`c-${user.id}`)).toBeNull()
  })

  test("50 parallel first sign-ins of one identity: one user, one account", async () => {
    await firstSignInRace(adapter, 50)
  })

  test("data survives closing and reopening the file", async () => {
    const user = testUser()
    await adapter.createUser(user)
    const reopened = SqlAdapter.sqlite(file)
    try {
      expect(await reopened.getUser(user.id)).toMatchObject({ id: user.id, email: user.email })
    } finally {
      await reopened.close()
    }
  })
})

describe("SqlAdapter on an existing Kysely instance (SQLite)", () => {
  const log = queryLog()
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new Sqlite(join(dir, "existing.db")) }),
    log: (event) => log.log(event),
  })
  const own = SqlAdapter(db)

  afterAll(async () => {
    await db.destroy()
  })

  test("detects the dialect, migrates, and works", async () => {
    expect(own.dialect).toBe("sqlite")
    expect(await migrate(db)).toEqual({ applied: Object.keys(migrations("sqlite")) })
    const user = testUser()
    await own.createUser(user)
    expect(await own.getUserByEmail(user.email)).toMatchObject({ id: user.id })
  })

  test("getSessionAndUser is one query, on indexes", async () => {
    const user = testUser()
    await own.createUser(user)
    await own.createSession({
      sessionToken: `s-${user.id}`,
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    })
    const statements = await log.record(() => own.getSessionAndUser(`s-${user.id}`))
    expect(statements).toHaveLength(1)
    expect(statements[0]).toMatch(/join/i)
    const plan = await sql<{
      detail: string
    }>`explain query plan ${sql.raw(statements[0]!.replace("?", "'x'"))}`.execute(db)
    for (const step of plan.rows)
      expect(step.detail).toMatch(/^SEARCH .* USING (INDEX|PRIMARY KEY|INTEGER PRIMARY KEY)/)
  })

  test("deleteUser cascades even without PRAGMA foreign_keys", async () => {
    // better-sqlite3 turns foreign keys on by default; an app may turn them off.
    await sql`pragma foreign_keys = OFF`.execute(db)
    const fk = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db)
    expect(fk.rows[0]?.foreign_keys).toBe(0)
    const user = testUser()
    await own.createUser(user)
    const account = testAccount(user.id)
    await own.linkAccount(account)
    const session = `d-${user.id}`
    await own.createSession({
      sessionToken: session,
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    })
    await own.deleteUser(user.id)
    expect(await own.getAccount(account.providerAccountId, account.provider)).toBeNull()
    expect(
      await db
        .selectFrom("sessions")
        .selectAll()
        .where("session_token", "=", session)
        .executeTakeFirst(),
    ).toBeUndefined()
  })

  test("close() leaves a Kysely instance it did not open alone", async () => {
    await own.close()
    expect(await own.getUser("nobody")).toBeNull()
  })
})

test("0003 to 0005 are idempotent: a database whose columns and tables exist but whose record of them is lost migrates again", async () => {
  const path = join(dir, "idempotent.db")
  const again = SqlAdapter.sqlite(path)
  try {
    // A new database gets every migration: session records (0003), second factors (0004),
    // records of users `users` does not hold (0005).
    expect(await again.migrate()).toEqual({
      applied: [
        "0001_init",
        "0002_rate_limits",
        "0003_session_records",
        "0004_two_factor",
        "0005_sessions_without_user_key",
      ],
    })
    await sql`delete from tessera_migrations where name = '0005_sessions_without_user_key'`.execute(
      again.db,
    )
    expect(await again.migrate()).toEqual({ applied: ["0005_sessions_without_user_key"] })
    await sql`delete from tessera_migrations where name in ('0003_session_records', '0004_two_factor', '0005_sessions_without_user_key')`.execute(
      again.db,
    )
    expect(await again.migrate()).toEqual({
      applied: ["0003_session_records", "0004_two_factor", "0005_sessions_without_user_key"],
    })
    await sql`delete from tessera_migrations where name in ('0004_two_factor', '0005_sessions_without_user_key')`.execute(
      again.db,
    )
    expect(await again.migrate()).toEqual({
      applied: ["0004_two_factor", "0005_sessions_without_user_key"],
    })
    expect(await again.migrate()).toEqual({ applied: [] })
  } finally {
    await again.close()
  }
})

test("0005 drops only the sessions' key to users: rows, indexes and the other keys stay; its down puts it back", async () => {
  const path = join(dir, "before-0005.db")
  const raw = new Sqlite(path)
  raw.pragma("foreign_keys = ON")
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) })
  const all = migrations("sqlite")
  for (const name of ["0001_init", "0002_rate_limits", "0003_session_records", "0004_two_factor"])
    await all[name]!.up(db)
  const indexes = () =>
    raw
      .prepare(
        "select name, sql from sqlite_master where type = 'index' and tbl_name = 'sessions' order by name",
      )
      .all()
  const before = indexes()
  const user = testUser()
  await db.insertInto("users").values({ id: user.id, email: user.email }).execute()
  await db
    .insertInto("sessions")
    .values({
      session_token: "t".repeat(64),
      user_id: user.id,
      expires: Date.now() + 60_000,
      id: "s1",
      created_at: 1,
      last_seen_at: 2,
      user_agent: "UA",
    })
    .execute()
  const unstored = {
    session_token: "record:s2",
    user_id: "authorize-1",
    expires: Date.now() + 60_000,
    id: "s2",
    created_at: 1,
    last_seen_at: 1,
  }
  await expect(db.insertInto("sessions").values(unstored).execute()).rejects.toThrow(/FOREIGN KEY/)
  await all["0005_sessions_without_user_key"]!.up(db)
  await all["0005_sessions_without_user_key"]!.up(db) // nothing left to drop: unchanged
  expect(indexes()).toEqual(before)
  await db.insertInto("sessions").values(unstored).execute()
  // The primary key and the unique id stay.
  await expect(
    db
      .insertInto("sessions")
      .values({ ...unstored, id: "s3" })
      .execute(),
  ).rejects.toThrow(/UNIQUE|PRIMARY/)
  await expect(
    db
      .insertInto("sessions")
      .values({ ...unstored, session_token: "record:s3" })
      .execute(),
  ).rejects.toThrow(/UNIQUE/)
  const own = SqlAdapter(db)
  const found = await own.getSessionAndUser("t".repeat(64))
  expect(found?.user.id).toBe(user.id)
  expect(found?.session).toMatchObject({ id: "s1", userAgent: "UA" })
  expect((await own.listSessionRecords("authorize-1")).map((r) => r.id)).toEqual(["s2"])
  // accounts keep their key to users.
  await expect(
    db
      .insertInto("accounts")
      .values({ user_id: "nobody", type: "oauth", provider: "p", provider_account_id: "1" })
      .execute(),
  ).rejects.toThrow(/FOREIGN KEY/)
  await all["0005_sessions_without_user_key"]!.down!(db)
  expect(indexes()).toEqual(before)
  expect((await own.listSessionRecords("authorize-1")).map((r) => r.id)).toEqual([])
  await expect(db.insertInto("sessions").values(unstored).execute()).rejects.toThrow(/FOREIGN KEY/)
  expect((await own.getSessionAndUser("t".repeat(64)))?.session.id).toBe("s1")
  await db.destroy()
})

test("0003 gives database sessions made before it an id, times, and a place in the list", async () => {
  const path = join(dir, "before-0003.db")
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(path) }) })
  const all = migrations("sqlite")
  await db.transaction().execute(async (trx) => {
    await all["0001_init"]!.up(trx)
    await all["0002_rate_limits"]!.up(trx)
  })
  const user = testUser()
  await db.insertInto("users").values({ id: user.id, name: null, email: user.email }).execute()
  await db
    .insertInto("sessions")
    .values({ session_token: "a".repeat(64), user_id: user.id, expires: Date.now() + 60_000 })
    .execute()
  await all["0003_session_records"]!.up(db)
  const own = SqlAdapter(db)
  const [record] = await own.listSessionRecords(user.id)
  expect(record).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{32}$/), userId: user.id })
  expect(record!.createdAt).toBeInstanceOf(Date)
  expect((await own.getSessionAndUser("a".repeat(64)))?.session.id).toBe(record!.id)
  await db.destroy()
})
