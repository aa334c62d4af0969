import { inspect } from "node:util"
import pg from "pg"
import { Kysely, PostgresDialect, sql } from "kysely"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { testUser } from "@tessera/testing"
import { runAdapterTests, runRateLimitStoreTests } from "@tessera/testing/suites"
import {
  SqlAdapter,
  migrate,
  migrations,
  type Database,
  type SqlAdapterInstance,
} from "@tessera/sql"
import { main } from "../src/cli.js"
import { firstSignInRace, postgresSchemas, queryLog, rateLimitWorker, rawDb } from "./helpers.js"

// One server for this file (or DATABASE_URL); every run works in fresh schemas
// of its own, dropped at the end, so runs never see each other's rows.
const pgs = postgresSchemas("tessera")
const freshSchema = pgs.fresh
const withSchema = pgs.poolConfig

// The adapter is made when the suite connects: the server is up by then.
let adapter: SqlAdapterInstance
const lazy = new Proxy({} as SqlAdapterInstance, {
  get: (_, key) => (adapter as any)?.[key],
})

runAdapterTests({
  name: "SqlAdapter (PostgreSQL) conformance",
  adapter: lazy,
  db: {
    connect: async () => {
      adapter = SqlAdapter.postgres(withSchema(await freshSchema("conformance")))
      await adapter.migrate()
    },
    disconnect: () => adapter.close(),
    ...rawDb(() => adapter.db),
  },
})

let limits: SqlAdapterInstance
let limitsSchema: string
let offset = 0
runRateLimitStoreTests({
  name: "SqlRateLimitStore (PostgreSQL) conformance",
  createStore: async () => {
    limitsSchema = await freshSchema("rate_limits")
    limits = SqlAdapter.postgres(withSchema(limitsSchema))
    await limits.migrate()
    return limits.rateLimitStore({ now: () => Date.now() + offset })
  },
  close: () => limits.close(),
  advanceClock: (seconds) => void (offset += seconds * 1000),
  crossProcess: rateLimitWorker(() => ({
    TESSERA_POSTGRES_URL: pgs.server.url,
    TESSERA_POSTGRES_SCHEMA: limitsSchema,
  })),
})

describe("SqlAdapter on PostgreSQL", () => {
  let pgAdapter: SqlAdapterInstance
  const log = queryLog()
  let logged: Kysely<Database>

  beforeAll(async () => {
    const schema = await freshSchema("main")
    pgAdapter = SqlAdapter.postgres(withSchema(schema))
    logged = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool(withSchema(schema)) }),
      log: (event) => log.log(event),
    })
  })

  afterAll(async () => {
    await pgAdapter?.close()
    await logged?.destroy()
  })

  test("migrate is idempotent", async () => {
    expect(await pgAdapter.migrate()).toEqual({ applied: Object.keys(migrations("postgres")) })
    expect(await pgAdapter.migrate()).toEqual({ applied: [] })
    expect(await migrate(logged)).toEqual({ applied: [] })
  })

  test("0003 to 0005 are idempotent: their columns and tables exist, their records are lost, they migrate again", async () => {
    expect(Object.keys(migrations("postgres"))).toEqual([
      "0001_init",
      "0002_rate_limits",
      "0003_session_records",
      "0004_two_factor",
      "0005_sessions_without_user_key",
    ])
    await sql`delete from tessera_migrations where name = '0005_sessions_without_user_key'`.execute(
      pgAdapter.db,
    )
    expect(await pgAdapter.migrate()).toEqual({ applied: ["0005_sessions_without_user_key"] })
    await sql`delete from tessera_migrations where name in ('0003_session_records', '0004_two_factor', '0005_sessions_without_user_key')`.execute(
      pgAdapter.db,
    )
    expect(await pgAdapter.migrate()).toEqual({
      applied: ["0003_session_records", "0004_two_factor", "0005_sessions_without_user_key"],
    })
    await sql`delete from tessera_migrations where name in ('0004_two_factor', '0005_sessions_without_user_key')`.execute(
      pgAdapter.db,
    )
    expect(await pgAdapter.migrate()).toEqual({
      applied: ["0004_two_factor", "0005_sessions_without_user_key"],
    })
    expect(await pgAdapter.migrate()).toEqual({ applied: [] })
  })

  test("dates are timestamptz, with unique and cascading constraints", async () => {
    const columns = await sql<{ table_name: string; column_name: string; data_type: string }>`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = current_schema() and column_name in ('expires', 'email_verified')`.execute(
      pgAdapter.db,
    )
    expect(columns.rows).toHaveLength(3)
    for (const c of columns.rows) expect(c.data_type).toBe("timestamp with time zone")
    const fks = await sql<{ delete_rule: string }>`
      select delete_rule from information_schema.referential_constraints where constraint_schema = current_schema()`.execute(
      pgAdapter.db,
    )
    // accounts and authenticators; sessions have none since 0005 (deleteUser deletes them).
    expect(fks.rows.map((r) => r.delete_rule)).toEqual(["CASCADE", "CASCADE"])
  })

  test("0005 drops only the sessions' key to users, keeping rows; its down puts the key back", async () => {
    const schema = await freshSchema("m0005")
    const db = new Kysely<any>({
      dialect: new PostgresDialect({ pool: new pg.Pool(withSchema(schema)) }),
    })
    try {
      const all = migrations("postgres")
      for (const name of [
        "0001_init",
        "0002_rate_limits",
        "0003_session_records",
        "0004_two_factor",
      ])
        await all[name]!.up(db)
      const user = testUser()
      await db.insertInto("users").values({ id: user.id, email: user.email }).execute()
      await db
        .insertInto("sessions")
        .values({
          session_token: "t".repeat(64),
          user_id: user.id,
          expires: new Date(Date.now() + 60_000),
          id: "s1",
        })
        .execute()
      const unstored = {
        session_token: "record:s2",
        user_id: "authorize-1",
        expires: new Date(Date.now() + 60_000),
        id: "s2",
      }
      await expect(db.insertInto("sessions").values(unstored).execute()).rejects.toThrow(
        /foreign key/,
      )
      await all["0005_sessions_without_user_key"]!.up(db)
      await all["0005_sessions_without_user_key"]!.up(db) // idempotent
      await db.insertInto("sessions").values(unstored).execute()
      const own = SqlAdapter(db)
      expect((await own.getSessionAndUser("t".repeat(64)))?.user.id).toBe(user.id)
      expect((await own.listSessionRecords("authorize-1")).map((r) => r.id)).toEqual(["s2"])
      await all["0005_sessions_without_user_key"]!.down!(db)
      expect((await own.listSessionRecords("authorize-1")).map((r) => r.id)).toEqual([])
      await expect(db.insertInto("sessions").values(unstored).execute()).rejects.toThrow(
        /foreign key/,
      )
      expect((await own.getSessionAndUser("t".repeat(64)))?.user.id).toBe(user.id)
    } finally {
      await db.destroy()
    }
  })

  test("50 parallel first sign-ins of one identity: one user, one account", async () => {
    await firstSignInRace(pgAdapter, 50)
  })

  test("getSessionAndUser is one query (a join)", async () => {
    const own = SqlAdapter(logged)
    expect(own.dialect).toBe("postgres")
    const user = testUser()
    await own.createUser(user)
    await own.createSession({
      sessionToken: `s-${user.id}`,
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    })
    const statements = await log.record(() => own.getSessionAndUser(`s-${user.id}`))
    expect(statements).toHaveLength(1)
    expect(statements[0]).toMatch(/inner join/i)
  })

  test("driver errors do not reveal the password", async () => {
    const url = new URL(pgs.server.url)
    url.password = "Wr0ngPassw0rd-xyz"
    const wrong = SqlAdapter.postgres(url.href)
    try {
      const error = await wrong.getUser("x").then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(Error)
      expect(inspect(error, { depth: 10 })).not.toContain("Wr0ngPassw0rd-xyz")
    } finally {
      await wrong.close()
    }
  })

  test("a unique violation keeps its code but not the e-mail address PostgreSQL quotes", async () => {
    await pgAdapter.migrate()
    const email = "quoted-in-detail@example.com"
    await pgAdapter.createUser({ ...testUser(), email })
    const error = await pgAdapter.createUser({ ...testUser(), email }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toMatchObject({ code: "23505" })
    expect((error as { detail?: string }).detail).toBe("Key (email)=(***) already exists.")
    expect(inspect(error, { depth: 10 })).not.toContain(email)
  })

  test("tessera migrate --postgres", async () => {
    const schema = await freshSchema("cli")
    const url = new URL(pgs.server.url)
    url.searchParams.set("options", `-c search_path=${schema}`)
    const out: string[] = []
    const err: string[] = []
    const io = {
      out: (s: string) => void out.push(s),
      err: (s: string) => void err.push(s),
      env: {},
    }
    expect(await main(["migrate", "--postgres", url.href], io)).toBe(0)
    expect(out.join("")).toMatch(/applied 0001_init/)
    expect(out.join("")).not.toContain(decodeURIComponent(new URL(pgs.server.url).password))
    expect(await main(["migrate"], { ...io, env: { DATABASE_URL: url.href } })).toBe(0)
    expect(out.join("")).toMatch(/already up to date/)
    expect(err).toEqual([])
    const tables = await pgs.admin.query(
      "select table_name from information_schema.tables where table_schema = $1 order by table_name",
      [schema],
    )
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        "accounts",
        "authenticators",
        "sessions",
        "users",
        "verification_tokens",
      ]),
    )
  })
})
