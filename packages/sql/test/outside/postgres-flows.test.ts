/**
 * The database flows as an outside tester drives them, on a real PostgreSQL: e-mail sign-in
 * (link and one-time code) with database sessions, account linking against a real OpenID
 * provider, session management, expiry and purge, rate limits in the `rate_limits` table, and
 * e-mail identity under PostgreSQL's case-sensitive text comparison. Only the public surface:
 * `SqlAdapter.postgres(...)`, `adapter.migrate()`, `adapter.purge()`,
 * `adapter.rateLimitStore()`, `Auth()` with real `Request`s; the tables are read directly to
 * check what was stored.
 *
 * One private cluster for the file (the harness's `startPostgres`, a random port and a temp
 * dir), one fresh schema per test, so fixed addresses never meet another test's rows.
 *
 * Five tests failed before their fixes: the four "first sign-ins of one address at once" (the
 * second sign-in hit the unique e-mail column and ended on error=Configuration, its link used
 * up; now decided again as if it came second), and "a provider's display name with a zero
 * byte" (PostgreSQL text cannot hold one: that user could never sign in). The rest held already.
 */
import { sql } from "kysely"
import pg from "pg"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import type { EmailSendVerificationRequestParams } from "@tessera/core/providers"
import { SqlAdapter, type SqlAdapterInstance } from "@tessera/sql"
import {
  completeOidcLogin,
  localOidcProvider,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import {
  Browser,
  ORIGIN,
  SECRET,
  recordingLogger,
  sessionCookieName,
} from "../../../core/test/harness/index.js"
import { postgresSchemas } from "../helpers.js"
import { askForMail, errorOf, linkOf, userIdOf } from "./mail-steps.js"

const pgs = postgresSchemas("tessera_flows")
const log = recordingLogger()
const adapters: SqlAdapterInstance[] = []

let idp: OidcProviderServer
beforeAll(async () => {
  idp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    accounts: {
      // The provider vouches for Ada's address, and for Bob's.
      "ada-idp": { email: "ada@example.com", email_verified: true },
      "bob-idp": { email: "bob@example.com", email_verified: true },
      // Someone who typed Ada's address at the provider, which never checked it.
      "mallory-idp": { email: "ada@example.com", email_verified: false },
      // A display name with a zero byte, which PostgreSQL text cannot hold.
      "nul-idp": { name: "Ada\u0000Lovelace", email: "nul@example.com", email_verified: true },
    },
  })
})
afterAll(() => idp?.stop())
afterEach(async () => {
  // Each test's pool closed after it: the cluster's 100 connections are for one test at a time.
  for (const adapter of adapters.splice(0)) await adapter.close()
  // Client mistakes are never logged as errors: anything here is a server fault.
  const errors = log.errors.splice(0).map((e) => `${e.name}: ${e.message}`)
  expect(errors).toEqual([])
})

/** A migrated adapter on a fresh schema, as an app opens it (a connection string). */
async function freshAdapter(name: string): Promise<SqlAdapterInstance> {
  const adapter = SqlAdapter.postgres(pgs.url(await pgs.fresh(name)))
  adapters.push(adapter)
  await adapter.migrate()
  return adapter
}

interface App {
  adapter: SqlAdapterInstance
  config: AuthConfig
  /** Every mail sent, in order. */
  mails: EmailSendVerificationRequestParams[]
}

/**
 * An app on PostgreSQL with database sessions: e-mail links (`email`), one-time codes
 * (`code`), the local OpenID provider (`local`), and rate limits in the same database.
 */
async function app(name: string, overrides: Partial<AuthConfig> = {}): Promise<App> {
  const adapter = await freshAdapter(name)
  const mails: EmailSendVerificationRequestParams[] = []
  const send = async (params: EmailSendVerificationRequestParams) => void mails.push(params)
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    adapter,
    session: { strategy: "database" },
    rateLimit: { store: adapter.rateLimitStore() },
    providers: [
      Email({ sendVerificationRequest: send }),
      Email({ id: "code", method: "code", sendVerificationRequest: send }),
      localOidcProvider(idp),
    ],
    ...overrides,
  }
  return { adapter, config, mails }
}

/** A new browser signed in by e-mail link as `email`. */
async function signedIn(app: App, email: string): Promise<Browser> {
  const browser = new Browser(app.config)
  const mail = await askForMail(app.mails, browser, email)
  const response = await browser.request(linkOf(mail))
  expect(errorOf(response)).toBeNull()
  expect((await browser.session())?.user?.email).toBe(email.trim().toLowerCase())
  return browser
}

const rows = (adapter: SqlAdapterInstance, table: "users" | "sessions" | "verification_tokens") =>
  adapter.db.selectFrom(table).selectAll().execute()

async function oidcSignIn(browser: Browser, accountId: string): Promise<Response> {
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
  return browser.request(back.url.pathname + back.url.search)
}

describe("e-mail sign-in with database sessions", () => {
  test("a link creates the user and a session; the cookie works; the token is stored hashed", async () => {
    const a = await app("link")
    const browser = new Browser(a.config)
    const mail = await askForMail(a.mails, browser, "ada@example.com")
    const token = new URL(mail.url).searchParams.get("token")!
    expect(token.length).toBeGreaterThanOrEqual(32)

    // Stored: one row for the address, whose token is not the mailed one, nor holds it.
    const tokens = await rows(a.adapter, "verification_tokens")
    expect(tokens).toHaveLength(1)
    expect(tokens[0]!.identifier).toBe("ada@example.com")
    expect(tokens[0]!.token).not.toBe(token)
    expect(JSON.stringify(tokens)).not.toContain(token)
    expect(tokens[0]!.expires).toBeInstanceOf(Date) // timestamptz comes back as a Date

    const response = await browser.request(linkOf(mail))
    expect(response.status).toBe(302)
    expect(errorOf(response)).toBeNull()
    expect(await rows(a.adapter, "verification_tokens")).toEqual([])

    const session = await browser.session()
    expect(session.user.email).toBe("ada@example.com")
    const [user] = await rows(a.adapter, "users")
    expect(user).toMatchObject({ email: "ada@example.com" })
    expect(user!.email_verified).toBeInstanceOf(Date)
    // The row keeps the cookie's hash, never the cookie; the answer's expiry is the row's.
    const cookie = browser.jar.get(sessionCookieName())!
    const [stored] = await rows(a.adapter, "sessions")
    expect(stored).toMatchObject({ user_id: user!.id })
    expect(stored!.session_token).not.toBe(cookie)
    expect(JSON.stringify(await rows(a.adapter, "sessions"))).not.toContain(cookie)
    expect(session.expires).toBe((stored!.expires as Date).toISOString())
  })

  test("one link, two concurrent clicks: exactly one session, the other refused", async () => {
    const a = await app("race")
    const mail = await askForMail(a.mails, new Browser(a.config), "ada@example.com")
    const clickers = [new Browser(a.config), new Browser(a.config)]
    const responses = await Promise.all(clickers.map((b) => b.request(linkOf(mail))))
    expect(responses.map(errorOf).sort()).toEqual([null, "Verification"].sort())
    const sessions = await Promise.all(clickers.map((b) => b.session()))
    expect(sessions.filter(Boolean)).toHaveLength(1)
    expect(await rows(a.adapter, "sessions")).toHaveLength(1)
    expect(await rows(a.adapter, "users")).toHaveLength(1)
    // Used up: a third click is refused too.
    expect(errorOf(await new Browser(a.config).request(linkOf(mail)))).toBe("Verification")
  })

  test("a one-time code: stored hashed, signs in once, even when posted twice at once", async () => {
    const a = await app("code")
    const asker = new Browser(a.config)
    const mail = await askForMail(a.mails, asker, "ada@example.com", "code")
    const code = (mail as { code?: string }).code!
    expect(code).toMatch(/^\d{8}$/)
    for (const row of await rows(a.adapter, "verification_tokens"))
      for (const value of Object.values(row)) expect(value).not.toBe(code)

    // The same code from two tabs of the asker's browser (one CSRF cookie), at once.
    const csrfToken = await asker.csrfToken()
    const post = () =>
      new Browser(a.config, ORIGIN, asker.jar).request("/auth/callback/code", {
        body: { email: "ada@example.com", code, csrfToken },
      })
    const responses = await Promise.all([post(), post()])
    expect(responses.map(errorOf).filter((e) => e === null)).toHaveLength(1)
    expect(await rows(a.adapter, "sessions")).toHaveLength(1)
    expect(await rows(a.adapter, "users")).toHaveLength(1)
  })
})

describe("account linking against a real OpenID provider", () => {
  test("a provider vouching for an address a user holds verified: refused, nothing linked", async () => {
    const a = await app("vouched")
    await signedIn(a, "ada@example.com")
    const response = await oidcSignIn(new Browser(a.config), "ada-idp")
    expect(errorOf(response)).toBe("OAuthAccountNotLinked")
    expect(await a.adapter.db.selectFrom("accounts").selectAll().execute()).toEqual([])
    expect(await rows(a.adapter, "users")).toHaveLength(1)
  })

  test("with allowDangerousEmailAccountLinking, the vouched address links to its holder", async () => {
    const a = await app("dangerous")
    a.config.providers = [
      ...a.config.providers!.slice(0, 2),
      { ...localOidcProvider(idp), allowDangerousEmailAccountLinking: true },
    ]
    await signedIn(a, "ada@example.com")
    const [ada] = await rows(a.adapter, "users")
    const browser = new Browser(a.config)
    expect(errorOf(await oidcSignIn(browser, "ada-idp"))).toBeNull()
    expect((await browser.session()).user.email).toBe("ada@example.com")
    expect(
      await a.adapter.getUserByAccount!({ provider: "local", providerAccountId: "ada-idp" }),
    ).toMatchObject({ id: ada!.id })
    expect(await rows(a.adapter, "users")).toHaveLength(1)
  })

  test("an unverified provider address never identifies the holder, even with dangerous linking", async () => {
    const a = await app("unverified")
    a.config.providers = [
      ...a.config.providers!.slice(0, 2),
      { ...localOidcProvider(idp), allowDangerousEmailAccountLinking: true },
    ]
    await signedIn(a, "ada@example.com")
    const browser = new Browser(a.config)
    expect(errorOf(await oidcSignIn(browser, "mallory-idp"))).toBe("OAuthAccountNotLinked")
    expect(await browser.session()).toBeNull()
    expect(await a.adapter.db.selectFrom("accounts").selectAll().execute()).toEqual([])
  })

  test("an unverified claim is released by the e-mail link's proof; the claimer gets nothing of the owner's", async () => {
    const a = await app("claim")
    // Mallory signs up first, with Ada's address unverified.
    const mallory = new Browser(a.config)
    expect(errorOf(await oidcSignIn(mallory, "mallory-idp"))).toBeNull()
    const [claimer] = await rows(a.adapter, "users")
    expect(claimer!.email_verified).toBeNull()
    // An unverified address identifies nobody: Ada's link makes Ada an account of her own.
    const ada = await signedIn(a, "ada@example.com")
    const users = await rows(a.adapter, "users")
    expect(users).toHaveLength(2)
    const owner = users.find((u) => u.id !== claimer!.id)!
    expect(owner).toMatchObject({ email: "ada@example.com" })
    expect(owner.email_verified).toBeInstanceOf(Date)
    expect(users.find((u) => u.id === claimer!.id)!.email).toBeNull()
    expect(await userIdOf(a.adapter, ada)).toBe(owner.id)
    // Mallory's sessions ended with the claim.
    expect(await mallory.session()).toBeNull()
  })

  test("a provider's display name with a zero byte: signed in, stored without it", async () => {
    const a = await app("nul-name")
    const browser = new Browser(a.config)
    expect(errorOf(await oidcSignIn(browser, "nul-idp"))).toBeNull()
    expect((await browser.session())?.user).toMatchObject({
      name: "AdaLovelace",
      email: "nul@example.com",
    })
    expect((await rows(a.adapter, "users")).map((u) => u.name)).toEqual(["AdaLovelace"])
  })

  test("signed in, an OAuth sign-in started by the user links to them", async () => {
    const a = await app("signed-in")
    const ada = await signedIn(a, "ada@example.com")
    expect(errorOf(await oidcSignIn(ada, "bob-idp"))).toBeNull()
    const [user] = await rows(a.adapter, "users")
    expect(
      await a.adapter.getUserByAccount!({ provider: "local", providerAccountId: "bob-idp" }),
    ).toMatchObject({ id: user!.id })
    expect(await rows(a.adapter, "users")).toHaveLength(1)
  })
})

async function json(browser: Browser, path: string, body?: Record<string, unknown>) {
  const response = body
    ? await browser.fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
    : await browser.fetch(path)
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

describe("session management", () => {
  test("list, revoke one (at once), never another user's; sign out everywhere", async () => {
    const a = await app("manage")
    const laptop = await signedIn(a, "ada@example.com")
    const phone = await signedIn(a, "ada@example.com")
    const bob = await signedIn(a, "bob@example.com")

    const listed = await json(laptop, "/auth/sessions")
    expect(listed.status).toBe(200)
    const entries = listed.body as { id: string; current: boolean; expires: string }[]
    expect(entries).toHaveLength(2)
    expect(entries.map((e) => e.current)).toEqual([false, true])
    for (const entry of entries) expect(new Date(entry.expires).toISOString()).toBe(entry.expires)
    const phoneId = entries[0]!.id
    const bobId = ((await json(bob, "/auth/sessions")).body as { id: string }[])[0]!.id

    const csrfToken = await laptop.csrfToken()
    const foreign = await json(laptop, "/auth/sessions/revoke", { id: bobId, csrfToken })
    const unknown = await json(laptop, "/auth/sessions/revoke", {
      id: "00000000-0000-4000-8000-000000000000",
      csrfToken,
    })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual(unknown.body)
    expect(await bob.session()).not.toBeNull()

    expect((await json(laptop, "/auth/sessions/revoke", { id: phoneId, csrfToken })).status).toBe(
      200,
    )
    expect(await phone.session()).toBeNull()
    expect(await laptop.session()).not.toBeNull()

    const again = await signedIn(a, "ada@example.com")
    const all = await laptop.request("/auth/signout", {
      body: { scope: "all", csrfToken: await laptop.csrfToken() },
    })
    expect(all.status).toBe(302)
    expect(await laptop.session()).toBeNull()
    expect(await again.session()).toBeNull()
    expect(await bob.session()).not.toBeNull()
    const left = await rows(a.adapter, "sessions")
    expect(left.map((s) => s.user_id)).toEqual([await userIdOf(a.adapter, bob)])
  })
})

describe("expiry and purge", () => {
  test("an expired session and link are refused; purge() deletes expired rows and keeps live ones", async () => {
    const a = await app("purge")
    const live = await signedIn(a, "ada@example.com")
    const stale = await signedIn(a, "bob@example.com")
    const staleLink = await askForMail(a.mails, new Browser(a.config), "carol@example.com")
    const liveLink = await askForMail(a.mails, new Browser(a.config), "dave@example.com")
    const past = new Date(Date.now() - 60_000)
    const bobId = (await userIdOf(a.adapter, stale))!
    await a.adapter.db
      .updateTable("sessions")
      .set({ expires: past })
      .where("user_id", "=", bobId)
      .execute()
    await a.adapter.db
      .updateTable("verification_tokens")
      .set({ expires: past })
      .where("identifier", "=", "carol@example.com")
      .execute()
    // One rate-limit counter (Dave's mailbox) has run out; the others have not.
    const counters = await a.adapter.db.selectFrom("rate_limits").selectAll().execute()
    expect(counters.length).toBeGreaterThan(1)
    await a.adapter.db
      .updateTable("rate_limits")
      .set({ expires_at: past })
      .where("key", "=", counters[0]!.key)
      .execute()

    expect(await a.adapter.purge()).toEqual({ sessions: 1, verificationTokens: 1, rateLimits: 1 })
    expect(await stale.session()).toBeNull()
    expect(await live.session()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(errorOf(await new Browser(a.config).request(linkOf(staleLink)))).toBe("Verification")
    expect(errorOf(await new Browser(a.config).request(linkOf(liveLink)))).toBeNull()
    expect(
      (await a.adapter.db.selectFrom("rate_limits").select("key").execute()).map((r) => r.key),
    ).not.toContain(counters[0]!.key)
    expect(await a.adapter.purge()).toEqual({ sessions: 0, verificationTokens: 0, rateLimits: 0 })
  })

  test("an expired session read over HTTP is none, and its row is deleted", async () => {
    const a = await app("expired")
    const browser = await signedIn(a, "ada@example.com")
    await a.adapter.db
      .updateTable("sessions")
      .set({ expires: new Date(Date.now() - 1000) })
      .execute()
    expect(await browser.session()).toBeNull()
    expect(await rows(a.adapter, "sessions")).toEqual([])
  })
})

describe("rate limits in the rate_limits table", () => {
  test("concurrent requests over the limit: exactly max mails; the keys hold no address", async () => {
    const a = await app("limits", {})
    a.config.rateLimit = { store: a.adapter.rateLimitStore(), email: { max: 3, window: 3600 } }
    const browsers = Array.from({ length: 8 }, () => new Browser(a.config))
    const tokens = await Promise.all(browsers.map((b) => b.csrfToken()))
    const responses = await Promise.all(
      browsers.map((b, i) =>
        b.request("/auth/signin/email", {
          body: { email: "grace@example.com", csrfToken: tokens[i]! },
        }),
      ),
    )
    const errors = responses.map(errorOf)
    expect(errors.filter((e) => e === null)).toHaveLength(3)
    expect(errors.filter((e) => e === "RateLimited")).toHaveLength(5)
    expect(a.mails).toHaveLength(3)
    expect(await rows(a.adapter, "verification_tokens")).toHaveLength(3)

    const keys = (await a.adapter.db.selectFrom("rate_limits").select("key").execute()).map(
      (r) => r.key,
    )
    expect(keys.length).toBeGreaterThan(0)
    for (const key of keys) {
      expect(key).not.toContain("grace")
      expect(key).not.toContain("example")
    }
  })

  test("concurrent wrong passwords over the limit: authorize runs at most max times, the right one is refused", async () => {
    let checked = 0
    const passwords = Credentials({
      credentials: { email: {}, password: { type: "password" } },
      authorize: async ({ password }) => {
        checked++
        return password === "right" ? { id: "grace", email: "grace@example.com" } : null
      },
    })
    const a = await app("credentials")
    a.config.providers = [passwords]
    a.config.session = { strategy: "jwt" }
    a.config.rateLimit = {
      store: a.adapter.rateLimitStore(),
      credentials: { max: 4, window: 900 },
    }
    const attempt = async (password: string) => {
      const browser = new Browser(a.config)
      const csrfToken = await browser.csrfToken()
      return browser.request("/auth/callback/credentials", {
        body: { email: "grace@example.com", password, csrfToken },
      })
    }
    const responses = await Promise.all(Array.from({ length: 10 }, () => attempt("wrong")))
    const errors = responses.map(errorOf)
    expect(errors.filter((e) => e === "CredentialsSignin")).toHaveLength(4)
    expect(errors.filter((e) => e === "RateLimited")).toHaveLength(6)
    expect(checked).toBe(4)
    expect(errorOf(await attempt("right"))).toBe("RateLimited")
    expect(checked).toBe(4)
    for (const { key } of await a.adapter.db.selectFrom("rate_limits").select("key").execute()) {
      expect(key).not.toContain("grace")
      expect(key).not.toContain("example")
    }
  })
})

describe("e-mail identity on PostgreSQL's case-sensitive text", () => {
  test("Ada@Example.com and ada@example.com are one user", async () => {
    const a = await app("case")
    const first = new Browser(a.config)
    const mail = await askForMail(a.mails, first, "Ada@Example.com")
    expect(mail.identifier).toBe("ada@example.com")
    expect(errorOf(await first.request(linkOf(mail)))).toBeNull()
    const second = await signedIn(a, "ada@example.com")
    const third = await signedIn(a, "  ADA@EXAMPLE.COM ")
    const ids = await Promise.all([first, second, third].map((b) => userIdOf(a.adapter, b)))
    expect(new Set(ids).size).toBe(1)
    expect((await rows(a.adapter, "users")).map((u) => u.email)).toEqual(["ada@example.com"])
  })

  test("two first sign-ins of one address at once (two links): one user, both signed in", async () => {
    const a = await app("first-race")
    const browsers = [new Browser(a.config), new Browser(a.config)]
    const mails = [
      await askForMail(a.mails, browsers[0]!, "ada@example.com"),
      await askForMail(a.mails, browsers[1]!, "Ada@Example.com"),
    ]
    const responses = await bothBeforeEitherWrites(
      a,
      () => browsers[0]!.request(linkOf(mails[0]!)),
      () => browsers[1]!.request(linkOf(mails[1]!)),
    )
    expect(responses.map(errorOf)).toEqual([null, null])
    const users = await rows(a.adapter, "users")
    expect(users).toHaveLength(1)
    expect(await Promise.all(browsers.map((b) => userIdOf(a.adapter, b)))).toEqual([
      users[0]!.id,
      users[0]!.id,
    ])
    for (const browser of browsers)
      expect((await browser.session())?.user?.email).toBe("ada@example.com")
  })

  /** A link for Ada, and an OpenID sign-in as `accountId` up to its callback. */
  async function linkAndProvider(a: App, accountId = "ada-idp") {
    const mailer = new Browser(a.config)
    const mail = await askForMail(a.mails, mailer, "ada@example.com")
    const oauth = new Browser(a.config)
    const start = await oauth.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
    return {
      mailer,
      oauth,
      byLink: () => mailer.request(linkOf(mail)),
      byProvider: () => oauth.request(back.url.pathname + back.url.search),
    }
  }

  test("a link, then a vouching provider, first sign-ins of one address at once: one user, the provider refused as when they come one after the other", async () => {
    const a = await app("link-first")
    const { mailer, oauth, byLink, byProvider } = await linkAndProvider(a)
    const [link, provider] = await bothBeforeEitherWrites(a, byLink, byProvider)
    expect(errorOf(link)).toBeNull()
    expect(errorOf(provider)).toBe("OAuthAccountNotLinked")
    const users = await rows(a.adapter, "users")
    expect(users).toHaveLength(1)
    expect(await userIdOf(a.adapter, mailer)).toBe(users[0]!.id)
    expect(await oauth.session()).toBeNull()
    expect(await a.adapter.db.selectFrom("accounts").selectAll().execute()).toEqual([])
  })

  test("a vouching provider, then a link, first sign-ins of one address at once: one user, both signed in as it", async () => {
    const a = await app("provider-first")
    const { mailer, oauth, byLink, byProvider } = await linkAndProvider(a)
    const [provider, link] = await bothBeforeEitherWrites(a, byProvider, byLink)
    expect([errorOf(provider), errorOf(link)]).toEqual([null, null])
    const users = await rows(a.adapter, "users")
    expect(users).toHaveLength(1)
    expect(await userIdOf(a.adapter, oauth)).toBe(users[0]!.id)
    expect(await userIdOf(a.adapter, mailer)).toBe(users[0]!.id)
    expect(
      await a.adapter.getUserByAccount!({ provider: "local", providerAccountId: "ada-idp" }),
    ).toMatchObject({ id: users[0]!.id })
  })

  test("a provider's unverified claim, then a link, first sign-ins of one address at once: the link's proof releases the claim", async () => {
    const a = await app("claim-first")
    const { mailer, oauth, byLink, byProvider } = await linkAndProvider(a, "mallory-idp")
    const [provider, link] = await bothBeforeEitherWrites(a, byProvider, byLink)
    expect([errorOf(provider), errorOf(link)]).toEqual([null, null])
    const users = await rows(a.adapter, "users")
    expect(users).toHaveLength(2)
    const adaId = await userIdOf(a.adapter, mailer)
    // Ada's is the new user with the address verified; the claimer's keeps its account, without
    // the address (whether its new session outlived the release depends on who wrote first).
    const ada = users.find((u) => u.id === adaId)!
    expect(ada).toMatchObject({ email: "ada@example.com" })
    expect(ada.email_verified).toBeInstanceOf(Date)
    const claimer = users.find((u) => u.id !== ada.id)!
    expect(claimer).toMatchObject({ email: null, email_verified: null })
    expect(
      await a.adapter.getUserByAccount!({ provider: "local", providerAccountId: "mallory-idp" }),
    ).toMatchObject({ id: claimer.id })
    expect([undefined, claimer.id]).toContain(await userIdOf(a.adapter, oauth))
  })
})

/**
 * Runs two sign-ins so that both have looked the address up before either writes: every
 * insert into `users` first waits for an advisory lock the test holds; `first` is started, and
 * `second` only once `first`'s insert waits; the lock is let go once both wait. The lock
 * queue is first come, first served, so `first` writes (and commits) first.
 */
async function bothBeforeEitherWrites(
  a: App,
  first: () => Promise<Response>,
  second: () => Promise<Response>,
): Promise<[Response, Response]> {
  await sql`create function hold_user() returns trigger language plpgsql as $$
    begin perform pg_advisory_xact_lock(4242); return new; end $$`.execute(a.adapter.db)
  await sql`create trigger hold_user before insert on users
    for each row execute function hold_user()`.execute(a.adapter.db)
  const holder = new pg.Client(pgs.server.url)
  await holder.connect()
  try {
    await holder.query("select pg_advisory_lock(4242)")
    const waiting = async (n: number) => {
      for (let i = 0; i < 1000; i++) {
        const { rows } = await holder.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted
           and classid = 0 and objid = 4242 and objsubid = 1`,
        )
        if (rows[0]!.n >= n) return
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      throw new Error(`fewer than ${n} inserts waited for the lock`)
    }
    const one = first()
    await waiting(1)
    const two = second()
    await waiting(2)
    await holder.query("select pg_advisory_unlock(4242)")
    return await Promise.all([one, two])
  } finally {
    await holder.end()
    await sql`drop trigger hold_user on users`.execute(a.adapter.db)
  }
}
