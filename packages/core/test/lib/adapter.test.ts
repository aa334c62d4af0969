/**
 * The database failing under a sign-in: closed mid-callback (SQLite), closed in
 * the middle of the user+account transaction (SQLite), unreachable mid-callback
 * and cut mid-transaction (PostgreSQL behind a TCP proxy the test can pull).
 * Every time: a clean error page, an `AdapterError` in the log (with nothing
 * secret in it), and afterwards no user without its account.
 *
 * Plus malformed tokens and ids: a clean 4xx and nothing written.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, Socket, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Sqlite from "better-sqlite3"
import { Kysely, SqliteDialect } from "kysely"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import Nodemailer from "@tessera/core/providers/nodemailer"
import { migrate, SqlAdapter, type Database } from "@tessera/sql"
import { startMailSink, type MailSink } from "@tessera/testing"
import { oauthSignIn, startStandin, type Standin } from "../flows/sign-in/loopback-oauth.js"
import { PostgresFixture } from "../harness/backends.js"
import { follow, linkIn, loggedText, requestLink, uniqueAddress } from "../flows/email/fixtures.js"
import {
  ADA,
  csrfToken,
  get,
  isExpired,
  makeConfig,
  ORIGIN,
  post,
  sessionCookieName,
  setCookie,
  signIn,
} from "../harness/index.js"

const CONFIGURATION_ERROR = `${ORIGIN}/auth/error?error=Configuration`
const HOME = expect.stringMatching(/^http:\/\/localhost:3000\/?$/)
const typesOf = (errors: Error[]) => errors.map((e) => (e as { type?: string }).type ?? e.name)

let standin: Standin
beforeAll(async () => {
  standin = await startStandin()
})
afterAll(async () => {
  await standin?.stop()
})

/** Reads a SQLite file with a connection of its own: what is really on disk. */
function onDisk(path: string) {
  const db = new Sqlite(path, { readonly: true })
  try {
    return {
      users: db.prepare("select id, email from users").all() as {
        id: string
        email: string | null
      }[],
      accounts: db.prepare("select user_id, provider_account_id from accounts").all() as {
        user_id: string
      }[],
      sessions: db.prepare("select session_token from sessions").all(),
    }
  } finally {
    db.close()
  }
}

function tempDb(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "tessera-faults-"))
  return {
    path: join(dir, "auth.db"),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** Users whose account is missing: the half-written state that must never exist. */
const orphans = (state: ReturnType<typeof onDisk>) =>
  state.users.filter((u) => !state.accounts.some((a) => a.user_id === u.id))

describe("SQLite stops under a sign-in", () => {
  test("closed in the middle of the signIn callback: error page, AdapterError, nothing written", async () => {
    const { path, cleanup } = tempDb()
    const adapter = SqlAdapter.sqlite(path)
    try {
      await adapter.migrate()
      const { config, log } = makeConfig({
        adapter,
        providers: [standin.provider()],
        callbacks: {
          async signIn() {
            await adapter.close() // the database goes away while the callback runs
            return true
          },
        },
      })
      const { response, jar } = await oauthSignIn(config, standin, {
        id: "gh-1",
        email: "ada@example.com",
      })
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe(CONFIGURATION_ERROR)
      expect(setCookie(response, sessionCookieName())).toBeUndefined()
      expect(jar.get(sessionCookieName())).toBeUndefined()
      expect(typesOf(log.errors)).toEqual(["AdapterError"])

      const page = await Auth(get("/auth/error?error=Configuration"), config)
      expect(page.status).toBe(500)
      expect(await page.text()).toContain("There is a problem with the server configuration.")

      const state = onDisk(path)
      expect(state).toEqual({ users: [], accounts: [], sessions: [] })
    } finally {
      await adapter.close()
      cleanup()
    }
  })

  test("closed between the user and account inserts of the transaction: rolled back, no orphan user", async () => {
    const { path, cleanup } = tempDb()
    // The adapter on a connection the test holds, so it can close it at an exact point:
    // a trigger on the account insert calls back into JS, which closes the database
    // right after that statement, before the COMMIT.
    const raw = new Sqlite(path)
    raw.pragma("journal_mode = WAL")
    raw.pragma("foreign_keys = ON")
    let armed = false
    const inserts: string[] = []
    raw.function("tessera_fault", (table: unknown) => {
      if (!armed) return 0
      inserts.push(String(table))
      if (table === "accounts") queueMicrotask(() => raw.close())
      return 0
    })
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) })
    try {
      await migrate(db, { dialect: "sqlite" })
      raw.exec(`
        create trigger fault_on_user before insert on users begin select tessera_fault('users'); end;
        create trigger fault_on_account before insert on accounts begin select tessera_fault('accounts'); end;`)
      const adapter = SqlAdapter(db, { dialect: "sqlite" })
      const { config, log } = makeConfig({ adapter, providers: [standin.provider()] })

      armed = true
      const { response } = await oauthSignIn(config, standin, {
        id: "gh-2",
        email: "ada@example.com",
      })
      expect(response.headers.get("location")).toBe(CONFIGURATION_ERROR)
      expect(typesOf(log.errors)).toEqual(["AdapterError"])
      expect(raw.open).toBe(false)
      // The user was inserted, in the same transaction, before the database went away.
      expect(inserts).toEqual(["users", "accounts"])

      const state = onDisk(path)
      expect(state.users).toEqual([])
      expect(state.accounts).toEqual([])
      expect(orphans(state)).toEqual([])

      // Back up again (a new adapter on the same file): the same sign-in is a clean first one.
      const maintenance = new Sqlite(path)
      maintenance.exec("drop trigger fault_on_user; drop trigger fault_on_account")
      maintenance.close()
      const reopened = SqlAdapter.sqlite(path)
      try {
        const again = makeConfig({ adapter: reopened, providers: [standin.provider()] })
        const retry = await oauthSignIn(again.config, standin, {
          id: "gh-2",
          email: "ada@example.com",
        })
        expect(retry.response.headers.get("location")).toEqual(HOME)
        const after = onDisk(path)
        expect(after.users).toHaveLength(1)
        expect(orphans(after)).toEqual([])
      } finally {
        await reopened.close()
      }
    } finally {
      await db.destroy().catch(() => undefined)
      cleanup()
    }
  })
})

/**
 * A TCP proxy in front of PostgreSQL. `cut()` drops every connection and
 * refuses new ones, as a stopped server does; `restore()` listens again.
 */
class Switch {
  private server: Server | undefined
  private sockets = new Set<Socket>()
  port = 0

  constructor(private readonly target: { host: string; port: number }) {}

  /** Listens again on the same port (a no-op while listening). */
  async restore(): Promise<void> {
    if (this.server) return
    const server = createServer((client) => {
      const upstream = new Socket()
      upstream.connect(this.target.port, this.target.host)
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on("close", () => this.sockets.delete(socket))
        socket.on("error", () => undefined)
      }
      client.pipe(upstream).pipe(client)
      client.on("close", () => upstream.destroy())
      upstream.on("close", () => client.destroy())
    })
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject)
      server.listen(this.port, "127.0.0.1", resolve)
    })
    this.port = (server.address() as { port: number }).port
    this.server = server
  }

  cut(): void {
    this.server?.close()
    this.server = undefined
    for (const socket of this.sockets) socket.destroy()
  }
}

describe("PostgreSQL stops under a sign-in", () => {
  const postgres = new PostgresFixture()
  let proxy: Switch
  let proxiedUrl: string
  let sink: MailSink

  beforeAll(async () => {
    await postgres.start()
    const url = new URL(postgres.url)
    proxy = new Switch({ host: url.hostname, port: Number(url.port) })
    await proxy.restore()
    url.port = String(proxy.port)
    proxiedUrl = url.href
    sink = await startMailSink()
  }, 60_000)
  afterAll(async () => {
    proxy?.cut()
    await sink?.stop()
    await postgres.stop()
  })

  const passwordOf = () => decodeURIComponent(new URL(postgres.url).password)

  async function rows(schema: string) {
    const users = await postgres.admin!.query(`select id, email from "${schema}".users`)
    const accounts = await postgres.admin!.query(`select user_id from "${schema}".accounts`)
    const sessions = await postgres.admin!.query(`select session_token from "${schema}".sessions`)
    return { users: users.rows, accounts: accounts.rows, sessions: sessions.rows }
  }

  test("unreachable from the middle of the signIn callback: error page, AdapterError without the password", async () => {
    const backend = await postgres.backend(proxiedUrl)
    try {
      let cutNow = true
      const { config, log } = makeConfig({
        adapter: backend.adapter,
        providers: [standin.provider()],
        callbacks: {
          signIn() {
            if (cutNow) proxy.cut()
            return true
          },
        },
      })
      const { response } = await oauthSignIn(config, standin, {
        id: "gh-3",
        email: "ada@example.com",
      })
      expect(response.headers.get("location")).toBe(CONFIGURATION_ERROR)
      expect(typesOf(log.errors)).toEqual(["AdapterError"])
      expect(loggedText(log.errors)).not.toContain(passwordOf())

      await proxy.restore()
      const state = await rows(backend.schema)
      expect(state).toEqual({ users: [], accounts: [], sessions: [] })

      cutNow = false
      const retry = await oauthSignIn(config, standin, { id: "gh-3", email: "ada@example.com" })
      expect(retry.response.headers.get("location")).toEqual(HOME)
      const after = await rows(backend.schema)
      expect(after.users).toHaveLength(1)
      expect(after.accounts).toEqual([{ user_id: after.users[0].id }])
    } finally {
      await proxy.restore()
      await backend.close()
    }
  })

  test("cut in the middle of the user+account transaction: rolled back, no orphan user", async () => {
    const backend = await postgres.backend(proxiedUrl)
    try {
      // Make the account insert slow, so the cut lands after the user insert and before COMMIT.
      await postgres.admin!.query(`
        create function "${backend.schema}".slow_account() returns trigger language plpgsql as $$
        begin perform pg_sleep(0.8); return new; end $$;
        create trigger slow_account before insert on "${backend.schema}".accounts
        for each row execute function "${backend.schema}".slow_account();`)
      let inFlight: string[] = []
      const adapter: Adapter = {
        ...backend.adapter,
        createUserAndAccount(user, account) {
          setTimeout(async () => {
            // Proof of where the cut lands: the account insert is running, inside the transaction.
            const activity = await postgres.admin!.query(
              "select query from pg_stat_activity where state = 'active' and query ilike 'insert into %accounts%'",
            )
            inFlight = activity.rows.map((r) => r.query)
            proxy.cut()
          }, 300)
          return backend.adapter.createUserAndAccount!(user, account)
        },
      }
      const { config, log } = makeConfig({ adapter, providers: [standin.provider()] })
      const { response } = await oauthSignIn(config, standin, {
        id: "gh-4",
        email: "ada@example.com",
      })
      expect(response.headers.get("location")).toBe(CONFIGURATION_ERROR)
      expect(typesOf(log.errors)).toEqual(["AdapterError"])
      expect(inFlight).toHaveLength(1)

      // Wait for the server to notice the dead client and end its transaction.
      for (let i = 0; i < 50; i++) {
        const active = await postgres.admin!.query(
          "select count(*)::int as n from pg_stat_activity where query like '%slow_account%' or state = 'idle in transaction'",
        )
        if (active.rows[0].n === 0) break
        await new Promise((r) => setTimeout(r, 100))
      }
      const state = await rows(backend.schema)
      expect(state.users).toEqual([])
      expect(state.accounts).toEqual([])

      await proxy.restore()
      await postgres.admin!.query(`drop trigger slow_account on "${backend.schema}".accounts`)
      const retry = await oauthSignIn(
        makeConfig({ adapter: backend.adapter, providers: [standin.provider()] }).config,
        standin,
        {
          id: "gh-4",
          email: "ada@example.com",
        },
      )
      expect(retry.response.headers.get("location")).toEqual(HOME)
      const after = await rows(backend.schema)
      expect(after.users).toHaveLength(1)
      expect(after.accounts).toEqual([{ user_id: after.users[0].id }])
    } finally {
      await proxy.restore()
      await backend.close()
    }
  })

  test("down during a session check: 500 JSON, AdapterError, the cookie kept and good again afterwards", async () => {
    const backend = await postgres.backend(proxiedUrl)
    try {
      const { config, log } = makeConfig({ adapter: backend.adapter })
      const { jar } = await signIn(config)
      proxy.cut()
      const down = await Auth(get("/auth/session", { jar }), config)
      expect(down.status).toBe(500)
      expect(await down.json()).toEqual({
        message: expect.stringContaining("server configuration"),
      })
      expect(down.headers.getSetCookie()).toEqual([])
      expect(typesOf(log.errors)).toEqual(["AdapterError"])

      await proxy.restore()
      const up = await Auth(get("/auth/session", { jar }), config)
      expect(await up.json()).toMatchObject({ user: { email: ADA.email } })
    } finally {
      await proxy.restore()
      await backend.close()
    }
  })

  test("down during sign-out: the cookie is still cleared; the failure is logged", async () => {
    const backend = await postgres.backend(proxiedUrl)
    try {
      const { config, log } = makeConfig({ adapter: backend.adapter })
      const { jar } = await signIn(config)
      const { token } = await csrfToken(config, jar)
      proxy.cut()
      const response = await Auth(post("/auth/signout", { csrfToken: token }, { jar }), config)
      expect(response.status).toBe(302)
      expect(isExpired(setCookie(response, sessionCookieName())!)).toBe(true)
      expect(typesOf(log.errors)).toEqual(["AdapterError"])
    } finally {
      await proxy.restore()
      await backend.close()
    }
  })

  test("down while a link is requested: no mail; down while it is followed: the link survives", async () => {
    const backend = await postgres.backend(proxiedUrl)
    try {
      const { config, log } = makeConfig({
        adapter: backend.adapter,
        providers: [Nodemailer({ server: sink.url, from: "auth@example.com" })],
      })
      const address = uniqueAddress()
      proxy.cut()
      const refused = await requestLink(config, address)
      expect(refused.response.headers.get("location")).toBe(CONFIGURATION_ERROR)
      await expect(sink.waitForMessage((m) => m.to.includes(address), 300)).rejects.toThrow()

      await proxy.restore()
      await requestLink(config, address)
      const link = linkIn(await sink.waitForMessage((m) => m.to.includes(address)))
      proxy.cut()
      expect((await follow(config, link)).response.headers.get("location")).toBe(
        CONFIGURATION_ERROR,
      )
      await proxy.restore()
      expect((await follow(config, link)).response.headers.get("location")).toEqual(HOME)
      expect(typesOf(log.errors)).toEqual(["AdapterError", "AdapterError"])
      expect(loggedText(log.errors)).not.toContain(link.searchParams.get("token")!)
    } finally {
      await proxy.restore()
      await backend.close()
    }
  })
})

describe("malformed tokens and ids: a clean 4xx, nothing written", () => {
  test.each([
    ["GET", "/auth/callback/bad%20id", 400],
    ["GET", "/auth/callback/%E2%9C%93", 400],
    ["GET", `/auth/callback/${"x".repeat(65)}`, 400],
    ["GET", "/auth/callback/%ZZ", 400],
    ["GET", "/auth/callback/unknown", 404],
    ["POST", "/auth/signin/unknown", 404],
    ["GET", "/auth/callback/nodemailer?token=%00&email=a%40b.example", 400],
    ["GET", "/auth/callback/nodemailer?token[]=x&email=a%40b.example", 400],
  ] as const)("%s %s -> %i", async (method, path, status) => {
    const { MemoryAdapter } = await import("@tessera/testing")
    const adapter = MemoryAdapter()
    const { config } = makeConfig({
      adapter,
      providers: [Nodemailer({ server: "smtp://127.0.0.1:9", from: "a@b.example" })],
    })
    const response = await Auth(new Request(`${ORIGIN}${path}`, { method }), config)
    expect(response.status).toBe(status)
    expect(
      adapter.store.users.size +
        adapter.store.sessions.size +
        adapter.store.verificationTokens.size,
    ).toBe(0)
  })
})
