/**
 * PostgreSQL going away under a running app: the test's own cluster stopped
 * (fast shutdown) and started again, a backend terminated mid-transaction, a
 * statement timeout, and a server that stops answering. Driven through `Auth()`
 * with `Request`s; every wait is bounded and on loopback.
 *
 * The two "stops answering" tests failed before `query_timeout` had a default and
 * a timed-out connection was closed: a session check on a frozen connection never
 * answered, and after a timeout the pool handed the stuck connection out again.
 * The rest held already and are kept as regression tests.
 */
import { createServer, type AddressInfo, type Socket } from "node:net"
import { inspect } from "node:util"
import pg from "pg"
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest"
import { Auth, getSession, type AuthConfig } from "@tessera/core"
import Nodemailer from "@tessera/core/providers/nodemailer"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { startMailSink, startPostgres, type MailSink, type PostgresServer } from "@tessera/testing"
import {
  ADA,
  credentialsProvider,
  csrfToken,
  get,
  isExpired,
  Jar,
  makeConfig,
  ORIGIN,
  post,
  sessionCookieName,
  setCookie,
  signIn,
} from "../../core/test/harness/index.js"
import {
  oauthSignIn,
  startStandin,
  type Standin,
} from "../../core/test/flows/sign-in/loopback-oauth.js"
import { within } from "../../core/test/harness/unresponsive.js"
import { clusterControl } from "./helpers.js"

let server: PostgresServer
let cluster: Awaited<ReturnType<typeof clusterControl>>
let sink: MailSink
const adapters: SqlAdapterInstance[] = []

beforeAll(async () => {
  // A private cluster even with DATABASE_URL set: these tests stop it.
  server = await startPostgres({ ignoreEnv: true })
  cluster = await clusterControl(server.url)
  sink = await startMailSink()
})
afterAll(async () => {
  await Promise.all(adapters.map((adapter) => adapter.close().catch(() => undefined)))
  await sink?.stop()
  await server?.stop()
})

const password = () => decodeURIComponent(new URL(server.url).password)

/** Runs `sql` on a connection of its own (the server may have restarted since the last one). */
async function admin<R extends pg.QueryResultRow = any>(sql: string, params: unknown[] = []) {
  const client = new pg.Client(server.url)
  await client.connect()
  try {
    return (await client.query<R>(sql, params)).rows
  } finally {
    await client.end()
  }
}

let schemas = 0
/** A migrated adapter on a fresh schema, with the given pool options over the defaults. */
async function freshAdapter(options: pg.PoolConfig = {}) {
  const schema = `outage_${crypto.randomUUID().slice(0, 8)}_${++schemas}`
  await admin(`create schema "${schema}"`)
  const adapter = SqlAdapter.postgres({
    connectionString: server.url,
    options: `-c search_path=${schema}`,
    ...options,
  })
  adapters.push(adapter)
  await adapter.migrate()
  return { adapter, schema }
}

/** Everything logged and answered, as one text: what must never carry a secret. */
function printed(errors: Error[], ...bodies: string[]): string {
  return [...errors.map((error) => inspect(error, { depth: 10 })), ...bodies].join("\n")
}

const typesOf = (errors: Error[]) => errors.map((e) => (e as { type?: string }).type ?? e.name)
const causeOf = (error: Error) => (error.cause as { err?: Error } | undefined)?.err

const CONFIGURATION_ERROR = `${ORIGIN}/auth/error?error=Configuration`
const GENERIC = {
  message:
    "There was a problem with the server configuration. Check the server logs for more information.",
}

/** What must hold of everything a failure logged and answered: no password, token or stack. */
function expectNothingSecret(errors: Error[], bodies: string[], secrets: string[]) {
  const logged = printed(errors)
  for (const secret of [password(), ...secrets]) {
    expect(logged).not.toContain(secret)
    for (const body of bodies) expect(body).not.toContain(secret)
  }
  for (const body of bodies) expect(body).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/)
}

describe("the server stopped (fast shutdown) and started again", () => {
  test("database sessions: each route answers at once, cleanly, and works again after the restart", async () => {
    const { adapter } = await freshAdapter()
    const { config, log } = makeConfig({
      adapter,
      session: { strategy: "database" },
      providers: [
        credentialsProvider(),
        Nodemailer({ server: sink.url, from: "auth@example.com" }),
      ],
    })
    const { jar } = await signIn(config)
    const sessionToken = jar.get(sessionCookieName())!
    expect(sessionToken).toMatch(/^[0-9a-f]{64}$/)
    const { token: csrf } = await csrfToken(config, jar)
    const address = `grace-${crypto.randomUUID()}@example.com`

    cluster.stop()
    try {
      const bodies: string[] = []
      const check = await Auth(get("/auth/session", { jar }), config)
      expect(check.status).toBe(500)
      expect(check.headers.getSetCookie()).toEqual([]) // the cookie is kept: a fault, not a sign-out
      bodies.push(await check.text())
      expect(JSON.parse(bodies[0]!)).toEqual(GENERIC)

      // A page reading the session: the framework gets the AdapterError to show its error page.
      await expect(
        getSession({ url: `${ORIGIN}/dashboard`, cookies: jar.header() }, config),
      ).rejects.toMatchObject({ type: "AdapterError" })

      const credentials = await Auth(
        post(
          "/auth/callback/credentials",
          { username: "ada", password: "correct horse", csrfToken: csrf },
          { jar },
        ),
        config,
      )
      expect(credentials.status).toBe(302)
      expect(credentials.headers.get("location")).toBe(CONFIGURATION_ERROR)
      expect(setCookie(credentials, sessionCookieName())).toBeUndefined()
      bodies.push(await credentials.text())

      const email = await Auth(
        post("/auth/signin/nodemailer", { email: address, csrfToken: csrf }, { jar }),
        config,
      )
      expect(email.headers.get("location")).toBe(CONFIGURATION_ERROR)
      bodies.push(await email.text())

      const signOut = await Auth(post("/auth/signout", { csrfToken: csrf }, { jar }), config)
      expect(signOut.status).toBe(302)
      expect(isExpired(setCookie(signOut, sessionCookieName())!)).toBe(true)
      bodies.push(await signOut.text())

      const page = await Auth(get("/auth/error?error=Configuration"), config)
      expect(page.status).toBe(500)
      bodies.push(await page.text())
      expect(bodies.at(-1)).toContain("There is a problem with the server configuration.")

      // Once each, at error (the page read threw to its caller, which logs it itself), and
      // none waited for the connect timeout: open connections were told the server is
      // shutting down, new ones were refused.
      expect(typesOf(log.errors)).toEqual(Array(4).fill("AdapterError"))
      expect(log.errors.map((error) => causeOf(error)?.message)).toEqual([
        "terminating connection due to administrator command",
        ...Array(3).fill(expect.stringMatching(/^connect ECONNREFUSED 127\.0\.0\.1:\d+$/)),
      ])
      expectNothingSecret(log.errors, bodies, [sessionToken])
      await expect(sink.waitForMessage((m) => m.to.includes(address), 300)).rejects.toThrow()
    } finally {
      cluster.start()
    }

    // The same adapter, not restarted: its pool connects again.
    const up = await Auth(get("/auth/session", { jar }), config)
    expect(await up.json()).toMatchObject({ user: { email: ADA.email } })
    const again = await signIn(config)
    expect(again.jar.get(sessionCookieName())).toMatch(/^[0-9a-f]{64}$/)
    expect(log.errors).toHaveLength(4)
  })

  test("JWT sessions with session records: the token answers until it must ask its record", async () => {
    const { adapter } = await freshAdapter()
    const { config, log } = makeConfig({ adapter, session: { strategy: "jwt" } })
    // The same app, but asking the record on every check (revalidateAge 0).
    const strict = { ...config, session: { strategy: "jwt", revalidateAge: 0 } } as AuthConfig
    const { jar } = await signIn(config)
    const cookie = jar.get(sessionCookieName())!
    const { token: csrf } = await csrfToken(config, jar)

    cluster.stop()
    try {
      // Within revalidateAge the token is enough: no database, no error.
      const cached = await Auth(get("/auth/session", { jar }), config)
      expect(cached.status).toBe(200)
      expect(await cached.json()).toMatchObject({ user: { email: ADA.email } })
      expect(log.errors).toEqual([])

      const asked = await Auth(get("/auth/session", { jar }), strict)
      expect(asked.status).toBe(500)
      expect(asked.headers.getSetCookie()).toEqual([])
      const bodies = [await asked.text()]
      expect(JSON.parse(bodies[0]!)).toEqual(GENERIC)

      const credentials = await signIn(config, undefined, { jar: new Jar() })
      expect(credentials.response.headers.get("location")).toBe(CONFIGURATION_ERROR)
      expect(setCookie(credentials.response, sessionCookieName())).toBeUndefined()

      const signOut = await Auth(post("/auth/signout", { csrfToken: csrf }, { jar }), config)
      expect(signOut.status).toBe(302)
      expect(isExpired(setCookie(signOut, sessionCookieName())!)).toBe(true)

      expect(typesOf(log.errors)).toEqual(Array(3).fill("AdapterError"))
      expectNothingSecret(log.errors, bodies, [cookie])
    } finally {
      cluster.start()
    }
    const up = await Auth(get("/auth/session", { jar }), strict)
    expect(await up.json()).toMatchObject({ user: { email: ADA.email } })
  })
})

describe("the default logger, with pg's own errors", () => {
  afterEach(() => vi.restoreAllMocks())

  test("each failure printed once at error, without the password or the session token", async () => {
    const { adapter } = await freshAdapter()
    // makeConfig's recording logger left out: Tessera's default one prints to the console.
    const { config } = makeConfig({ adapter, session: { strategy: "database" }, logger: undefined })
    const { jar } = await signIn(config)
    const sessionToken = jar.get(sessionCookieName())!
    const printed: string[] = []
    for (const level of ["error", "warn", "log", "info", "debug"] as const)
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        printed.push(
          `${level}: ${args.map((arg) => (typeof arg === "string" ? arg : inspect(arg))).join(" ")}`,
        )
      })
    cluster.stop()
    try {
      expect((await Auth(get("/auth/session", { jar }), config)).status).toBe(500)
      const { response } = await signIn(config, undefined, { jar: new Jar() })
      expect(response.headers.get("location")).toBe(CONFIGURATION_ERROR)
    } finally {
      cluster.start()
    }
    const output = printed.join("\n")
    expect(printed.filter((line) => line.includes("[tessera][error]"))).toEqual([
      "error: [tessera][error] AdapterError: Adapter method getSessionAndUser failed",
      "error: [tessera][error] AdapterError: Adapter method getUser failed",
    ])
    expect(output).toContain("terminating connection due to administrator command")
    expect(output).toMatch(/ECONNREFUSED 127\.0\.0\.1:\d+/)
    expect(output).not.toContain(password())
    expect(output).not.toContain(sessionToken)
  })
})

/** The server processes of the app's connections (its `application_name`). */
async function backendsOf(application: string): Promise<number[]> {
  const rows = await admin<{ pid: number }>(
    "select pid from pg_stat_activity where application_name = $1",
    [application],
  )
  return rows.map((row) => row.pid)
}

/** The backends of `application` running an insert into accounts. */
async function insertingAccounts(application: string): Promise<number[]> {
  const rows = await admin<{ pid: number }>(
    `select pid from pg_stat_activity
     where application_name = $1 and state = 'active' and query ilike 'insert into%accounts%'`,
    [application],
  )
  return rows.map((row) => row.pid)
}

/** `promise`, or "no answer" once `ms` have passed: the test's bound, so a hang fails instead of stalling. */

const statusOf = (answer: Response | "no answer") =>
  answer === "no answer" ? answer : answer.status

describe("a server that stops answering", () => {
  /**
   * The app's connection stays open but its server process answers nothing (SIGSTOP: a
   * frozen VM, a network that drops packets), while new connections still work.
   */
  async function frozen(options: pg.PoolConfig) {
    const application = `outage-${crypto.randomUUID().slice(0, 8)}`
    const { adapter } = await freshAdapter({ application_name: application, ...options })
    const { config, log } = makeConfig({ adapter, session: { strategy: "database" } })
    const { jar } = await signIn(config)
    const pids = await backendsOf(application)
    expect(pids).toHaveLength(1) // the pool's one idle connection, which the next check gets
    for (const pid of pids) process.kill(pid, "SIGSTOP")
    return {
      config,
      log,
      jar,
      check: () => within(Auth(get("/auth/session", { jar }), config), 45_000),
      thaw: () => pids.forEach((pid) => process.kill(pid, "SIGCONT")),
    }
  }

  test("a session check on a connection that never answers fails by default, rather than hang", async () => {
    const app = await frozen({})
    try {
      const answer = await app.check()
      expect(statusOf(answer)).toBe(500)
      expect(typesOf(app.log.errors)).toEqual(["AdapterError"])
    } finally {
      app.thaw()
    }
  }, 60_000)

  test("the connection that timed out is dropped: the next check gets a fresh one and succeeds", async () => {
    const app = await frozen({ query_timeout: 500 })
    try {
      const first = await app.check()
      expect(statusOf(first)).toBe(500)
      // The frozen process still holds its connection; the pool must not hand it out again.
      const second = await app.check()
      expect(statusOf(second)).toBe(200)
      expect(await (second as Response).json()).toMatchObject({ user: { email: ADA.email } })
      expect(typesOf(app.log.errors)).toEqual(["AdapterError"])
      expect(causeOf(app.log.errors[0]!)?.message).toBe("Query read timeout")
    } finally {
      app.thaw()
    }
  })

  test("a server that accepts connections and never answers: the connect timeout ends the wait", async () => {
    const silent = createServer(() => {}) // accepts, reads nothing, answers nothing
    const held = new Set<Socket>()
    silent.on("connection", (socket) => held.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    const url = new URL(server.url)
    url.port = String((silent.address() as AddressInfo).port)
    const adapter = SqlAdapter.postgres({
      connectionString: url.href,
      connectionTimeoutMillis: 500,
    })
    adapters.push(adapter)
    try {
      const { config, log } = makeConfig({ adapter, session: { strategy: "database" } })
      const answer = await within(
        Auth(
          get("/auth/session", { headers: { cookie: `${sessionCookieName()}=${"a".repeat(64)}` } }),
          config,
        ),
        20_000,
      )
      expect(statusOf(answer)).toBe(500)
      expect(typesOf(log.errors)).toEqual(["AdapterError"])
      expect(causeOf(log.errors[0]!)?.message).toMatch(/timeout/i)
      expectNothingSecret(log.errors, [await (answer as Response).text()], [])
    } finally {
      for (const socket of held) socket.destroy()
      silent.close()
    }
  })
})

describe("a connection lost in the middle of the user+account transaction", () => {
  let standin: Standin
  beforeAll(async () => {
    standin = await startStandin()
  })
  afterAll(() => standin?.stop())

  async function rows(schema: string) {
    const users = await admin(`select id from "${schema}".users`)
    const accounts = await admin(`select user_id from "${schema}".accounts`)
    return { users, accounts }
  }

  /** A schema whose account insert takes `seconds`: the window to cut the transaction in. */
  async function slowAccounts(seconds: number) {
    const { adapter, schema } = await freshAdapter()
    await admin(`
      create function "${schema}".slow_account() returns trigger language plpgsql as $$
      begin perform pg_sleep(${seconds}); return new; end $$;
      create trigger slow_account before insert on "${schema}".accounts
      for each row execute function "${schema}".slow_account();`)
    return {
      adapter,
      schema,
      fast: () => admin(`drop trigger slow_account on "${schema}".accounts`),
    }
  }

  test("pg_terminate_backend during the account insert: rolled back, no user without account", async () => {
    const { adapter, schema, fast } = await slowAccounts(5)
    const { config, log } = makeConfig({ adapter, providers: [standin.provider()] })
    const signingIn = oauthSignIn(config, standin, { id: "gh-term", email: "term@example.com" })
    // The insert into accounts is running, after the user's, in one transaction: end it.
    let terminated: unknown[] = []
    for (let i = 0; i < 100 && terminated.length === 0; i++) {
      terminated = await admin(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where state = 'active' and query ilike 'insert into%accounts%'`,
      )
      if (terminated.length === 0) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(terminated).toHaveLength(1)
    const { response } = await signingIn
    expect(response.headers.get("location")).toBe(CONFIGURATION_ERROR)
    expect(typesOf(log.errors)).toEqual(["AdapterError"])
    // The server's FATAL notice, or the socket closing first: either way the connection is gone.
    expect(causeOf(log.errors[0]!)?.message).toMatch(
      /^(terminating connection due to administrator command|Connection terminated unexpectedly)$/,
    )
    expect(await rows(schema)).toEqual({ users: [], accounts: [] })

    await fast()
    const retry = await oauthSignIn(config, standin, { id: "gh-term", email: "term@example.com" })
    expect(retry.response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/?$/)
    const after = await rows(schema)
    expect(after.users).toHaveLength(1)
    expect(after.accounts).toEqual([{ user_id: after.users[0].id }])
  })

  test("statement_timeout during the account insert: rolled back, no user without account", async () => {
    const { schema, fast } = await slowAccounts(2)
    const adapter = SqlAdapter.postgres({
      connectionString: server.url,
      options: `-c search_path=${schema} -c statement_timeout=300`,
    })
    adapters.push(adapter)
    const { config, log } = makeConfig({ adapter, providers: [standin.provider()] })
    const { response } = await oauthSignIn(config, standin, {
      id: "gh-st",
      email: "st@example.com",
    })
    expect(response.headers.get("location")).toBe(CONFIGURATION_ERROR)
    expect(typesOf(log.errors)).toEqual(["AdapterError"])
    expect(causeOf(log.errors[0]!)?.message).toBe("canceling statement due to statement timeout")
    expect(await rows(schema)).toEqual({ users: [], accounts: [] })

    await fast()
    const retry = await oauthSignIn(config, standin, { id: "gh-st", email: "st@example.com" })
    expect(retry.response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/?$/)
    const after = await rows(schema)
    expect(after.accounts).toEqual([{ user_id: after.users[0].id }])
  })

  test("query_timeout during the account insert: the connection is closed, the server rolls back", async () => {
    const { schema, fast } = await slowAccounts(2)
    const application = `outage-${crypto.randomUUID().slice(0, 8)}`
    const adapter = SqlAdapter.postgres({
      connectionString: server.url,
      options: `-c search_path=${schema}`,
      application_name: application,
      query_timeout: 500,
    })
    adapters.push(adapter)
    const { config, log } = makeConfig({ adapter, providers: [standin.provider()] })
    const signingIn = oauthSignIn(config, standin, { id: "gh-qt", email: "qt@example.com" })
    // The backend running the insert into accounts (it sleeps in the trigger past the timeout).
    let inserting: number[] = []
    for (let i = 0; i < 100 && inserting.length === 0; i++) {
      inserting = await insertingAccounts(application)
      if (inserting.length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(inserting).toHaveLength(1)
    const { response } = await signingIn
    expect(response.headers.get("location")).toBe(CONFIGURATION_ERROR)
    expect(typesOf(log.errors)).toEqual(["AdapterError"])
    expect(causeOf(log.errors[0]!)?.message).toBe("Query read timeout")
    // The server notices the closed connection when the insert ends, and rolls back. (Only
    // that backend: the sign-in's look-up after the failure may leave an idle one in the pool.)
    const gone = async () => !(await backendsOf(application)).includes(inserting[0]!)
    for (let i = 0; i < 100 && !(await gone()); i++)
      await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await gone()).toBe(true)
    expect(await rows(schema)).toEqual({ users: [], accounts: [] })

    await fast()
    const retry = await oauthSignIn(config, standin, { id: "gh-qt", email: "qt@example.com" })
    expect(retry.response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/?$/)
    const after = await rows(schema)
    expect(after.accounts).toEqual([{ user_id: after.users[0].id }])
  })
})
