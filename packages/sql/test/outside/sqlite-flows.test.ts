/**
 * Two first sign-ins of one e-mail address at once, on a SQLite file, as an
 * outside tester drives them: `SqlAdapter.sqlite(file)`, `adapter.migrate()`,
 * `Auth()` with real `Request`s. The equivalent of postgres-flows.test.ts's
 * "first sign-ins of one address at once" on SQLite.
 *
 * Both sign-ins must look the address up before either writes its user. That
 * interleaving is made certain without mocks: the real adapter is wrapped so
 * that `createUser` waits until both requests have reached it, then lets both
 * go to the database (one insert wins, the unique e-mail column refuses the
 * other, and core decides that sign-in again as if it had come second).
 *
 * Both held when written (SQLite's unique-constraint failure reaches core as an
 * `AdapterError` like PostgreSQL's); with the retry taken out of core, both end
 * the second sign-in on `error=Configuration` with an `AdapterError` logged.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import Email from "@tessera/core/providers/email"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import { Browser, SECRET, recordingLogger } from "../../../core/test/harness/index.js"
import { askForMail, errorOf, linkOf, userIdOf } from "./mail-steps.js"

/** A sign-in whose interleaving went wrong waits at the gate: it fails here, not the run. */
const TEST_TIMEOUT_MS = 15_000

const dir = mkdtempSync(join(tmpdir(), "tessera-sqlite-flows-"))
const log = recordingLogger()
const adapters: SqlAdapterInstance[] = []
let files = 0

afterEach(async () => {
  for (const adapter of adapters.splice(0)) await adapter.close()
  // Client mistakes are never logged as errors: anything here is a server fault.
  const errors = log.errors.splice(0).map((e) => `${e.name}: ${e.message}`)
  expect(errors).toEqual([])
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * `adapter` with `createUser` held until `count` calls have reached it, then all let through
 * to the real method at once. Every other method is the adapter's own.
 */
function createUserMeets<A extends Adapter>(adapter: A, count: number): A & { arrived(): number } {
  let arrived = 0
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  const createUser: Adapter["createUser"] = async (user) => {
    if (++arrived >= count) open()
    await gate
    return adapter.createUser!(user)
  }
  return new Proxy(adapter, {
    get(target, key, receiver) {
      if (key === "createUser") return createUser
      if (key === "arrived") return () => arrived
      return Reflect.get(target, key, receiver)
    },
  }) as A & { arrived(): number }
}

interface App {
  adapter: SqlAdapterInstance
  gated: ReturnType<typeof createUserMeets<SqlAdapterInstance>>
  config: AuthConfig
  mails: EmailSendVerificationRequestParams[]
}

/** An app on a fresh SQLite file with database sessions: links (`email`) and codes (`code`). */
async function app(): Promise<App> {
  const adapter = SqlAdapter.sqlite(join(dir, `auth-${++files}.db`))
  adapters.push(adapter)
  await adapter.migrate()
  const gated = createUserMeets(adapter, 2)
  const mails: EmailSendVerificationRequestParams[] = []
  const send = async (params: EmailSendVerificationRequestParams) => void mails.push(params)
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    adapter: gated,
    session: { strategy: "database" },
    providers: [
      Email({ sendVerificationRequest: send }),
      Email({ id: "code", method: "code", sendVerificationRequest: send }),
    ],
  }
  return { adapter, gated, config, mails }
}

/** Enters the mail's code on the verify-request page's form. */
async function enter(browser: Browser, mail: EmailSendVerificationRequestParams) {
  const csrfToken = await browser.csrfToken()
  return browser.request("/auth/callback/code", {
    body: { email: mail.identifier, code: mail.code!, csrfToken },
  })
}

async function expectOneUserBothSignedIn(a: App, browsers: Browser[], responses: Response[]) {
  expect(responses.map(errorOf)).toEqual([null, null])
  // Both really met at createUser: each had found no user for the address.
  expect(a.gated.arrived()).toBe(2)
  const users = await a.adapter.db.selectFrom("users").selectAll().execute()
  expect(users).toHaveLength(1)
  expect(users[0]).toMatchObject({ email: "ada@example.com" })
  expect(users[0]!.email_verified).not.toBeNull()
  expect(await Promise.all(browsers.map((b) => userIdOf(a.adapter, b)))).toEqual([
    users[0]!.id,
    users[0]!.id,
  ])
  for (const browser of browsers)
    expect((await browser.session())?.user?.email).toBe("ada@example.com")
}

describe("two first sign-ins of one address at once on SQLite", () => {
  test(
    "two links, clicked at the same moment: one user, both signed in as it",
    async () => {
      const a = await app()
      const browsers = [new Browser(a.config), new Browser(a.config)]
      const mails = [
        await askForMail(a.mails, browsers[0]!, "ada@example.com"),
        await askForMail(a.mails, browsers[1]!, "Ada@Example.com"),
      ]
      const responses = await Promise.all([
        browsers[0]!.request(linkOf(mails[0]!)),
        browsers[1]!.request(linkOf(mails[1]!)),
      ])
      await expectOneUserBothSignedIn(a, browsers, responses)
    },
    TEST_TIMEOUT_MS,
  )

  test(
    "a link and a one-time code at the same moment: one user, both signed in as it",
    async () => {
      const a = await app()
      const browsers = [new Browser(a.config), new Browser(a.config)]
      const link = await askForMail(a.mails, browsers[0]!, "ada@example.com")
      const code = await askForMail(a.mails, browsers[1]!, "ada@example.com", "code")
      const responses = await Promise.all([
        browsers[0]!.request(linkOf(link)),
        enter(browsers[1]!, code),
      ])
      await expectOneUserBothSignedIn(a, browsers, responses)
    },
    TEST_TIMEOUT_MS,
  )
})
