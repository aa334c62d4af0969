/**
 * SQLite refusing work under a running app: the file read-only (the app
 * started on a file it cannot write), and the file locked by another process
 * holding a write transaction past the busy timeout (SQLITE_BUSY). Driven
 * through `Auth()` with `Request`s; what is on disk is read with a connection of
 * the test's own.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inspect } from "node:util"
import Sqlite from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Nodemailer from "@tessera/core/providers/nodemailer"
import { Kysely, SqliteDialect } from "kysely"
import { migrations, SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { startMailSink, type MailSink } from "@tessera/testing"
import {
  ADA,
  credentialsProvider,
  csrfToken,
  get,
  isExpired,
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

const CONFIGURATION_ERROR = `${ORIGIN}/auth/error?error=Configuration`
const typesOf = (errors: Error[]) => errors.map((e) => (e as { type?: string }).type ?? e.name)
const causeOf = (error: Error) =>
  (error.cause as { err?: Error & { code?: string } } | undefined)?.err

let standin: Standin
let sink: MailSink
const cleanups: (() => unknown)[] = []
beforeAll(async () => {
  standin = await startStandin()
  sink = await startMailSink()
})
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  await standin?.stop()
  await sink?.stop()
})

/** A fresh temp dir, deleted at the end. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "tessera-outage-"))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A migrated file in a fresh temp dir, and an app on it (database sessions, three providers). */
async function app(path = join(tempDir(), "auth.db")) {
  const adapter: SqlAdapterInstance = SqlAdapter.sqlite(path)
  cleanups.push(() => adapter.close())
  await adapter.migrate()
  const { config, log } = makeConfig({
    adapter,
    session: { strategy: "database" },
    providers: [
      credentialsProvider(),
      standin.provider(),
      Nodemailer({ server: sink.url, from: "auth@example.com" }),
    ],
  })
  return { path, adapter, config, log }
}

/** The rows on disk, read with a connection of the test's own. */
function onDisk(path: string) {
  const db = new Sqlite(path, { readonly: true })
  try {
    const all = (table: string) => db.prepare(`select * from ${table}`).all() as any[]
    return {
      users: all("users").map((u) => u.email),
      accounts: all("accounts").length,
      sessions: all("sessions").length,
      tokens: all("verification_tokens").length,
    }
  } finally {
    db.close()
  }
}

/** Every refusal the app can meet on a write: a sign-in of each kind, then sign-out. */
async function writes(config: AuthConfig, jar: Awaited<ReturnType<typeof signIn>>["jar"]) {
  const { token: csrf } = await csrfToken(config, jar)
  const credentials = await Auth(
    post(
      "/auth/callback/credentials",
      { username: "ada", password: "correct horse", csrfToken: csrf },
      { jar },
    ),
    config,
  )
  const email = await Auth(
    post("/auth/signin/nodemailer", { email: "grace@example.com", csrfToken: csrf }, { jar }),
    config,
  )
  const oauth = (await oauthSignIn(config, standin, { id: "gh-1", email: "linus@example.com" }))
    .response
  const signOut = await Auth(post("/auth/signout", { csrfToken: csrf }, { jar }), config)
  return { credentials, email, oauth, signOut }
}

function expectRefusedCleanly(answers: Awaited<ReturnType<typeof writes>>, bodies: string[]) {
  for (const refused of [answers.credentials, answers.email, answers.oauth]) {
    expect(refused.status).toBe(302)
    expect(refused.headers.get("location")).toBe(CONFIGURATION_ERROR)
    expect(setCookie(refused, sessionCookieName())).toBeUndefined()
  }
  // Signing out still forgets the cookie.
  expect(answers.signOut.status).toBe(302)
  expect(isExpired(setCookie(answers.signOut, sessionCookieName())!)).toBe(true)
  for (const body of bodies) expect(body).not.toMatch(/\n\s+at |node_modules|SQLITE/)
}

/**
 * Every write (credentials, e-mail and OAuth sign-ins, sign-out) refused cleanly, each logged
 * once at error (a server fault) as an `AdapterError` caused by `code`, with no session token.
 */
async function expectWritesRefused(
  config: AuthConfig,
  jar: Awaited<ReturnType<typeof signIn>>["jar"],
  errors: Error[],
  code: string,
) {
  const answers = await writes(config, jar)
  expectRefusedCleanly(answers, [
    await answers.credentials.text(),
    await answers.email.text(),
    await answers.oauth.text(),
    await answers.signOut.text(),
  ])
  expect(typesOf(errors)).toEqual(Array(4).fill("AdapterError"))
  for (const error of errors) expect(causeOf(error)?.code).toBe(code)
  const sessionToken = jar.get(sessionCookieName())!
  expect(errors.map((error) => inspect(error, { depth: 10 })).join()).not.toContain(sessionToken)
}

describe("SQLite file read-only", () => {
  test("the app started on a file it cannot write: sessions are read, writes refused cleanly, nothing written", async () => {
    // Signed in while the file was writable; then the file turns read-only (root ignores
    // permission bits: the immutable attribute stops root too) and the app restarts.
    const before = await app()
    const { jar } = await signIn(before.config)
    await before.adapter.close()
    const state = onDisk(before.path)
    expect(spawnSync("chattr", ["+i", before.path]).status).toBe(0)
    cleanups.push(() => spawnSync("chattr", ["-i", before.path]))

    const { config, log } = await app(before.path)
    const check = await Auth(get("/auth/session", { jar }), config)
    expect(await check.json()).toMatchObject({ user: { email: ADA.email } })

    await expectWritesRefused(config, jar, log.errors, "SQLITE_READONLY")
    expect(onDisk(before.path)).toEqual(state)
  })
})

/**
 * Another process (a `tessera migrate`, a backup, a second app) holding a write
 * transaction on the file until told to let go; it gives up by itself after 60 s.
 */
async function lockHolder(path: string): Promise<{ release(): Promise<void> }> {
  const script = `
    const db = new (require("better-sqlite3"))(process.argv[1])
    db.exec("begin immediate")
    db.prepare("insert into users (id, email) values ('locker', 'locker@example.com')").run()
    process.stdout.write("locked\\n")
    const end = () => { db.exec("rollback"); db.close(); process.exit(0) }
    process.stdin.on("data", end)
    setTimeout(end, 60000)`
  const child: ChildProcess = spawn(process.execPath, ["-e", script, path], {
    stdio: ["pipe", "pipe", "inherit"],
  })
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()))
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve())
    child.once("exit", (code) => reject(new Error(`lock holder exited (${code})`)))
  })
  const release = async () => {
    child.stdin!.end("go\n")
    await exited
  }
  cleanups.push(release)
  return { release }
}

describe("SQLite file locked by another process past the busy timeout", () => {
  test("reads go on, writes are refused cleanly after the busy timeout, nothing half-written", async () => {
    const { path, config, log } = await app()
    const { jar } = await signIn(config)
    const state = onDisk(path)
    const locker = await lockHolder(path)

    // WAL: a reader does not wait for the writer.
    const check = await Auth(get("/auth/session", { jar }), config)
    expect(await check.json()).toMatchObject({ user: { email: ADA.email } })

    await expectWritesRefused(config, jar, log.errors, "SQLITE_BUSY")

    await locker.release()
    // The other process's transaction was rolled back; ours never happened.
    expect(onDisk(path)).toEqual(state)
    // The same app, once the lock is gone: the OAuth sign-in writes its user and account.
    const again = await oauthSignIn(config, standin, { id: "gh-1", email: "linus@example.com" })
    expect(again.response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/?$/)
    const after = onDisk(path)
    expect(after.users).toEqual([...state.users, "linus@example.com"])
    expect(after.accounts).toBe(state.accounts + 1)
  }, 60_000)
})

/**
 * JWT sessions, and a credentials user `authorize` vouches for but `users` does not hold:
 * the sign-in's session record is its only handle (listing, revoking, signing out
 * everywhere). A database refusing the write must fail the sign-in like anyone's, not
 * let it go on without a record as if the adapter refused records of unstored users
 * (which is what the `session-records-unstored-user` fallback is for: a foreign key).
 * Failed before the fix: a 302 home with a session cookie, no error logged, only that
 * warning.
 */
describe("JWT sessions of a user the database does not hold, while it refuses writes", () => {
  const outsider = { id: "outsider-1", name: "Ada", email: "ada@example.com" }

  async function jwtApp() {
    const path = join(tempDir(), "auth.db")
    const adapter = SqlAdapter.sqlite(path)
    cleanups.push(() => adapter.close())
    await adapter.migrate()
    const { config, log } = makeConfig({
      adapter,
      session: { strategy: "jwt" },
      providers: [credentialsProvider({ authorize: () => ({ ...outsider }) })],
    })
    return { path, adapter, config, log }
  }

  function expectRefused(
    response: Response,
    log: ReturnType<typeof makeConfig>["log"],
    code: string,
  ) {
    expect(response.headers.get("location")).toBe(CONFIGURATION_ERROR)
    expect(setCookie(response, sessionCookieName())).toBeUndefined()
    expect(typesOf(log.errors)).toEqual(["AdapterError"])
    expect(causeOf(log.errors[0]!)?.code).toBe(code)
    expect(log.warnings).not.toContain("session-records-unstored-user")
  }

  test("the file read-only: the sign-in fails and is logged, no session without a record", async () => {
    const { path, adapter } = await jwtApp()
    await adapter.close()
    expect(spawnSync("chattr", ["+i", path]).status).toBe(0)
    cleanups.push(() => spawnSync("chattr", ["-i", path]))
    const reopened = SqlAdapter.sqlite(path)
    cleanups.push(() => reopened.close())
    const { config, log } = makeConfig({
      adapter: reopened,
      session: { strategy: "jwt" },
      providers: [credentialsProvider({ authorize: () => ({ ...outsider }) })],
    })
    const { response } = await signIn(config)
    expectRefused(response, log, "SQLITE_READONLY")
  })

  test("the file locked past the busy timeout: the sign-in fails and is logged; afterwards it has its record", async () => {
    const { path, config, log } = await jwtApp()
    const locker = await lockHolder(path)
    const { response } = await signIn(config)
    expectRefused(response, log, "SQLITE_BUSY")
    await locker.release()

    const { response: again, jar } = await signIn(config)
    expect(again.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/?$/)
    expect(jar.get(sessionCookieName())).toBeTruthy()
    const records = new Sqlite(path, { readonly: true })
    try {
      expect(records.prepare("select user_id from sessions").all()).toEqual([
        { user_id: outsider.id },
      ])
    } finally {
      records.close()
    }
  }, 30_000)

  test("a real foreign key (a database before migration 0005) still lets the sign-in go on, with the warning", async () => {
    const path = join(tempDir(), "auth.db")
    const raw = new Sqlite(path)
    raw.pragma("foreign_keys = ON")
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: raw }) })
    const all = migrations("sqlite")
    for (const name of ["0001_init", "0002_rate_limits", "0003_session_records", "0004_two_factor"])
      await all[name]!.up(db)
    await db.destroy()
    const adapter = SqlAdapter.sqlite(path)
    cleanups.push(() => adapter.close())
    const { config, log } = makeConfig({
      adapter,
      session: { strategy: "jwt" },
      providers: [credentialsProvider({ authorize: () => ({ ...outsider }) })],
    })
    const { response, jar } = await signIn(config)
    expect(response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/?$/)
    expect(jar.get(sessionCookieName())).toBeTruthy()
    expect(log.errors).toEqual([])
    expect(log.warnings).toContain("session-records-unstored-user")
  })
})
