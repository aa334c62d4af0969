/** Shared by the SQLite and PostgreSQL test files. */
import { spawnSync } from "node:child_process"
import { dirname, join } from "node:path"
import Sqlite from "better-sqlite3"
import type { Kysely } from "kysely"
import pg from "pg"
import { afterAll, beforeAll, expect } from "vitest"
import { startPostgres, testAccount, testUser, type PostgresServer } from "@tessera/testing"
import type { AdapterTestDb, CrossProcessOptions } from "@tessera/testing/suites"
import type { Database, SqlAdapterInstance } from "@tessera/sql"

/** Reads rows straight from the tables, bypassing the adapter. */
export function rawDb(
  kysely: Kysely<Database> | (() => Kysely<Database>),
): Omit<AdapterTestDb, "connect" | "disconnect"> {
  const db = new Proxy({} as Kysely<Database>, {
    get: (_, key) => {
      const target = typeof kysely === "function" ? kysely() : kysely
      const value = (target as any)[key]
      return typeof value === "function" ? value.bind(target) : value
    },
  })
  return {
    async user(id) {
      const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst()
      return row ? { id: row.id, email: row.email as string } : null
    },
    async account({ provider, providerAccountId }) {
      const row = await db
        .selectFrom("accounts")
        .selectAll()
        .where("provider", "=", provider)
        .where("provider_account_id", "=", providerAccountId)
        .executeTakeFirst()
      return row
        ? {
            userId: row.user_id,
            provider: row.provider,
            providerAccountId: row.provider_account_id,
          }
        : null
    },
    async session(sessionToken) {
      const row = await db
        .selectFrom("sessions")
        .selectAll()
        .where("session_token", "=", sessionToken)
        .executeTakeFirst()
      return row ? { sessionToken: row.session_token, userId: row.user_id } : null
    },
    async verificationToken({ identifier, token }) {
      const row = await db
        .selectFrom("verification_tokens")
        .selectAll()
        .where("identifier", "=", identifier)
        .where("token", "=", token)
        .executeTakeFirst()
      return row ? { identifier: row.identifier, token: row.token } : null
    },
    async authenticator(credentialID) {
      const row = await db
        .selectFrom("authenticators")
        .selectAll()
        .where("credential_id", "=", credentialID)
        .executeTakeFirst()
      return row ? { credentialID: row.credential_id, userId: row.user_id } : null
    },
    async twoFactor(userId) {
      const row = await db
        .selectFrom("two_factors")
        .selectAll()
        .where("user_id", "=", userId)
        .executeTakeFirst()
      if (!row) return null
      const codes = await db
        .selectFrom("two_factor_recovery_codes")
        .select("code_hash")
        .where("user_id", "=", userId)
        .execute()
      return {
        userId: row.user_id,
        secret: row.secret,
        recoveryCodes: codes.map((c) => c.code_hash),
      }
    },
  }
}

/**
 * 50 first sign-ins of one identity at once (same e-mail, same provider
 * account, each with its own new user id): exactly one user and one account
 * may exist afterwards, and every caller must get that user.
 */
export async function firstSignInRace(adapter: SqlAdapterInstance, size = 50): Promise<void> {
  const email = `race-${crypto.randomUUID()}@example.com`
  const providerAccountId = crypto.randomUUID()
  const results = await Promise.all(
    Array.from({ length: size }, () => {
      const user = testUser({ email })
      return adapter.createUserAndAccount(
        user,
        testAccount(user.id, { provider: "github", providerAccountId }),
      )
    }),
  )
  expect(results.filter((r) => r.created)).toHaveLength(1)
  const winner = results.find((r) => r.created)!.user.id
  expect(new Set(results.map((r) => r.user.id))).toEqual(new Set([winner]))
  for (const r of results) expect(r.account).toMatchObject({ userId: winner, providerAccountId })

  const users = await adapter.db
    .selectFrom("users")
    .select(["id"])
    .where("email", "=", email)
    .execute()
  const accounts = await adapter.db
    .selectFrom("accounts")
    .select(["user_id"])
    .where("provider_account_id", "=", providerAccountId)
    .execute()
  expect(users).toEqual([{ id: winner }])
  expect(accounts).toEqual([{ user_id: winner }])
}

/** Runs `fn` and returns the SQL statements the Kysely `log` hook saw meanwhile. */
export function queryLog() {
  const statements: string[] = []
  let recording = false
  return {
    log: (event: { level: string; query: { sql: string } }) => {
      if (recording) statements.push(event.query.sql)
    },
    async record(fn: () => Promise<unknown>): Promise<string[]> {
      statements.length = 0
      recording = true
      try {
        await fn()
      } finally {
        recording = false
      }
      return [...statements]
    },
  }
}

/** The names of a SQLite file's tables, read without a write. */
export function sqliteTables(file: string): string[] {
  const db = new Sqlite(file, { readonly: true })
  try {
    return (
      db.prepare("select name from sqlite_master where type = 'table' order by name").all() as {
        name: string
      }[]
    ).map((r) => r.name)
  } finally {
    db.close()
  }
}

/**
 * One PostgreSQL server for a test file (or DATABASE_URL), and fresh schemas on
 * it, each dropped at the end: runs and tests never see each other's rows.
 * Call at the top level of the file; the server starts in `beforeAll`.
 */
export function postgresSchemas(prefix: string) {
  let server: PostgresServer | undefined
  let admin: pg.Client | undefined
  const run = crypto.randomUUID().slice(0, 8)
  const schemas: string[] = []
  beforeAll(async () => {
    server = await startPostgres()
    admin = new pg.Client(server.url)
    await admin.connect()
  })
  afterAll(async () => {
    for (const schema of schemas) await admin?.query(`drop schema if exists "${schema}" cascade`)
    await admin?.end()
    await server?.stop()
  })
  return {
    get server(): PostgresServer {
      return server!
    },
    /** A client on the server, outside any test schema. */
    get admin(): pg.Client {
      return admin!
    },
    async fresh(name: string): Promise<string> {
      const schema = `${prefix}_${run}_${name}_${schemas.length + 1}`
      await admin!.query(`create schema "${schema}"`)
      schemas.push(schema)
      return schema
    },
    /** A pool config whose connections work in `schema`. */
    poolConfig: (schema: string): pg.PoolConfig => ({
      connectionString: server!.url,
      options: `-c search_path=${schema}`,
    }),
    /** The server's URL with `schema` first on the search_path, as an app would point at it. */
    url(schema: string): string {
      const url = new URL(server!.url)
      url.searchParams.set("options", `-c search_path=${schema}`)
      return url.href
    },
  }
}

/**
 * The rate-limit store suite's second process: `rate-limit-worker.mjs`, which
 * runs the built package (so the test is skipped, saying so, before a build).
 */
export function rateLimitWorker(
  env: Record<string, string> | (() => Record<string, string>),
): CrossProcessOptions {
  return {
    worker: new URL("./rate-limit-worker.mjs", import.meta.url),
    env,
    requires: [
      new URL("../dist/index.js", import.meta.url),
      new URL("../../testing/dist/rate-limit-store-worker.js", import.meta.url),
    ],
  }
}

/**
 * Stops and starts again the private cluster behind `url` (from `startPostgres({ ignoreEnv:
 * true })`), keeping its data and port, as an operator's `pg_ctl stop -m fast` / `start` would:
 * for outage tests. Where its binaries and data are is asked of the server itself. As root
 * the server runs as the `postgres` OS user (see startPostgres), so pg_ctl does too.
 */
export async function clusterControl(url: string) {
  const client = new pg.Client(url)
  await client.connect()
  let data: string
  let bin: string
  try {
    data = (await client.query<{ data_directory: string }>("show data_directory")).rows[0]!
      .data_directory
    bin = (
      await client.query<{ setting: string }>("select setting from pg_config where name = 'BINDIR'")
    ).rows[0]!.setting
  } finally {
    await client.end()
  }
  const pgCtl = (...args: string[]) => {
    const [command, argv] =
      process.getuid?.() === 0
        ? ["runuser", ["-u", "postgres", "--", `${bin}/pg_ctl`, ...args]]
        : [`${bin}/pg_ctl`, args]
    const result = spawnSync(command, argv, { encoding: "utf8", timeout: 30_000 })
    if (result.status !== 0) throw new Error(`pg_ctl ${args.at(-1)}: ${result.stderr}`)
  }
  return {
    /** Fast shutdown: sessions are ended (their clients told so), open transactions rolled back. */
    stop: () => pgCtl("-D", data, "-m", "fast", "-w", "-t", "20", "stop"),
    start: () =>
      pgCtl("-D", data, "-l", join(dirname(data), "server.log"), "-w", "-t", "20", "start"),
  }
}

/**
 * How many connections of `application` wait on a lock, once `expected` do (or after 15 s of
 * polling, whatever the count then): connections come up and block one by one.
 */
export async function waitingOnLocks(
  admin: pg.Client,
  application: string,
  expected: number,
): Promise<number> {
  let count = -1
  for (let i = 0; i < 300 && count < expected; i++) {
    const { rows } = await admin.query<{ count: string }>(
      `select count(*) from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
      [application],
    )
    count = Number(rows[0]!.count)
    if (count < expected) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return count
}
