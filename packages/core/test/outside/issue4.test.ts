/**
 * Issue 4 as an outside tester reads it (the issue text, the specification and docs/databases.md,
 * docs/email.md, docs/sessions.md; not the sources): the adapter contract of `@tessera/sql` on a
 * real SQLite file, e-mail sign-in through a real SMTP sink, database sessions and account
 * linking, everything through `Auth()` with real `Request`s.
 */
import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest"
import type { AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import Nodemailer from "@tessera/core/providers/nodemailer"
import {
  completeOidcLogin,
  localOidcProvider,
  startMailSink,
  startOidcProvider,
  type MailSink,
  type OidcProviderServer,
} from "@tessera/testing"
import type { SqlAdapterInstance } from "@tessera/sql"
import { PostgresFixture } from "../harness/backends.js"
import { Browser, ORIGIN } from "../harness/index.js"
import { outsideSetup } from "./setup.js"

const { log, sqlite, authConfig } = outsideSetup()

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")
let serial = 0
const fresh = (name: string) => `${name}${++serial}${Date.now().toString(36)}`

const postgres = new PostgresFixture()
afterAll(() => postgres.stop())
const engines: [string, () => Promise<SqlAdapterInstance>][] = [
  ["SQLite (a real file)", () => sqlite()],
  [
    "PostgreSQL (a real server)",
    async () => {
      if (!postgres.server) await postgres.start()
      const backend = await postgres.backend()
      onClose.push(() => backend.close())
      return backend.sql
    },
  ],
]
const onClose: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const close of onClose) await close()
})

describe.each(engines)("the adapter contract on %s", (_, open) => {
  test("missing rows answer null (or []), never throw", async () => {
    const adapter = await open()
    expect(await adapter.getUser!("nope")).toBeNull()
    expect(await adapter.getUserByEmail!("nobody@example.com")).toBeNull()
    expect(
      await adapter.getUserByAccount!({ provider: "github", providerAccountId: "1" }),
    ).toBeNull()
    expect(await adapter.getAccount!("1", "github")).toBeNull()
    expect(await adapter.getSessionAndUser!("no-such-token")).toBeNull()
    expect(
      await adapter.useVerificationToken!({ identifier: "a@example.com", token: "t" }),
    ).toBeNull()
    expect(await adapter.getAuthenticator!("no-such-credential")).toBeNull()
    expect(await adapter.listAuthenticatorsByUserId!("nope")).toEqual([])
  })

  test("users, accounts, sessions round-trip; deleting a user cascades", async () => {
    const adapter = await open()
    const user = await adapter.createUser!({
      id: "ignored-or-kept",
      email: "ada@example.com",
      emailVerified: null,
      name: "Ada",
    } as never)
    expect(user.id).toEqual(expect.any(String))
    expect(await adapter.getUserByEmail!("ada@example.com")).toMatchObject({ id: user.id })
    const updated = await adapter.updateUser!({ id: user.id, name: "Ada L." })
    expect(updated).toMatchObject({ id: user.id, name: "Ada L.", email: "ada@example.com" })

    await adapter.linkAccount!({
      userId: user.id,
      type: "oidc",
      provider: "local",
      providerAccountId: "sub-1",
      access_token: "at",
      token_type: "bearer",
    })
    expect(
      await adapter.getUserByAccount!({ provider: "local", providerAccountId: "sub-1" }),
    ).toMatchObject({ id: user.id })
    expect(await adapter.getAccount!("sub-1", "local")).toMatchObject({
      userId: user.id,
      provider: "local",
      providerAccountId: "sub-1",
    })

    const expires = new Date(Date.now() + 3600_000)
    const session = await adapter.createSession!({ sessionToken: "s1", userId: user.id, expires })
    expect(session).toMatchObject({ sessionToken: "s1", userId: user.id })
    const both = await adapter.getSessionAndUser!("s1")
    expect(both?.user).toMatchObject({ id: user.id, email: "ada@example.com" })
    expect(both?.session.expires).toBeInstanceOf(Date)
    expect(both?.session.expires.valueOf()).toBe(expires.valueOf())

    await adapter.unlinkAccount!({ provider: "local", providerAccountId: "sub-1" })
    expect(
      await adapter.getUserByAccount!({ provider: "local", providerAccountId: "sub-1" }),
    ).toBeNull()
    await adapter.linkAccount!({
      userId: user.id,
      type: "oidc",
      provider: "local",
      providerAccountId: "sub-2",
    })

    await adapter.deleteUser!(user.id)
    expect(await adapter.getUser!(user.id)).toBeNull()
    expect(await adapter.getSessionAndUser!("s1")).toBeNull()
    expect(
      await adapter.getUserByAccount!({ provider: "local", providerAccountId: "sub-2" }),
    ).toBeNull()
    expect(await adapter.getAccount!("sub-2", "local")).toBeNull()
  })

  test("an expired session reads as none and is deleted; deleteSession removes the row", async () => {
    const adapter = await open()
    const user = await adapter.createUser!({
      email: "bo@example.com",
      emailVerified: null,
    } as never)
    await adapter.createSession!({
      sessionToken: "old",
      userId: user.id,
      expires: new Date(Date.now() - 1000),
    })
    expect(await adapter.getSessionAndUser!("old")).toBeNull()
    const rows = await adapter.db.selectFrom("sessions").selectAll().execute()
    expect(rows.filter((r) => (r as { session_token: string }).session_token === "old")).toEqual([])

    await adapter.createSession!({
      sessionToken: "live",
      userId: user.id,
      expires: new Date(Date.now() + 60_000),
    })
    const later = new Date(Date.now() + 120_000)
    expect(await adapter.updateSession!({ sessionToken: "live", expires: later })).toMatchObject({
      sessionToken: "live",
    })
    expect((await adapter.getSessionAndUser!("live"))?.session.expires.valueOf()).toBe(
      later.valueOf(),
    )
    await adapter.deleteSession!("live")
    expect(await adapter.getSessionAndUser!("live")).toBeNull()
  })

  test("a verification token is used once, even by two concurrent calls", async () => {
    const adapter = await open()
    const token = {
      identifier: "ada@example.com",
      token: "hashed",
      expires: new Date(Date.now() + 60_000),
    }
    expect(await adapter.createVerificationToken!(token)).toMatchObject({ token: "hashed" })
    const [a, b] = await Promise.all([
      adapter.useVerificationToken!({ identifier: token.identifier, token: token.token }),
      adapter.useVerificationToken!({ identifier: token.identifier, token: token.token }),
    ])
    expect([a, b].filter(Boolean)).toHaveLength(1)
    expect((a ?? b)!.expires.valueOf()).toBe(token.expires.valueOf())
    expect(
      await adapter.useVerificationToken!({ identifier: token.identifier, token: token.token }),
    ).toBeNull()
  })

  test("authenticators: stored, listed per user, counter updated, unique credential id", async () => {
    const adapter = await open()
    const user = await adapter.createUser!({
      email: "cy@example.com",
      emailVerified: null,
    } as never)
    await adapter.linkAccount!({
      userId: user.id,
      type: "webauthn",
      provider: "passkey",
      providerAccountId: "cred-1",
    })
    const authenticator = {
      credentialID: "cred-1",
      userId: user.id,
      providerAccountId: "cred-1",
      credentialPublicKey: "cHVibGlj",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      transports: "internal,hybrid",
    }
    expect(await adapter.createAuthenticator!(authenticator)).toMatchObject(authenticator)
    expect(await adapter.getAuthenticator!("cred-1")).toMatchObject(authenticator)
    expect(await adapter.listAuthenticatorsByUserId!(user.id)).toMatchObject([authenticator])
    expect(await adapter.updateAuthenticatorCounter!("cred-1", 5)).toMatchObject({ counter: 5 })
    expect(await adapter.getAuthenticator!("cred-1")).toMatchObject({ counter: 5 })
    await expect(adapter.createAuthenticator!(authenticator)).rejects.toThrow()
    expect(await adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(1)
  })

  test("unique e-mail and unique (provider, providerAccountId) are enforced by the schema", async () => {
    const adapter = await open()
    const a = await adapter.createUser!({ email: "dup@example.com", emailVerified: null } as never)
    await expect(
      adapter.createUser!({ email: "dup@example.com", emailVerified: null } as never),
    ).rejects.toThrow()
    const b = await adapter.createUser!({
      email: "other@example.com",
      emailVerified: null,
    } as never)
    await adapter.linkAccount!({
      userId: a.id,
      type: "oidc",
      provider: "p",
      providerAccountId: "1",
    })
    await expect(
      adapter.linkAccount!({ userId: b.id, type: "oidc", provider: "p", providerAccountId: "1" }),
    ).rejects.toThrow()
  })
})

describe("e-mail sign-in through nodemailer and a real SMTP sink", () => {
  let sink: MailSink
  beforeAll(async () => {
    sink = await startMailSink()
  })
  afterAll(() => sink?.stop())

  async function setup(extra: Partial<AuthConfig> = {}) {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [Nodemailer({ server: sink.url, from: "app@example.com" })],
      ...extra,
    })
    return { adapter, config, browser: new Browser(config) }
  }

  async function ask(browser: Browser, email: string, callbackUrl?: string) {
    const seen = sink.messages.length
    const body: Record<string, string> = { email, csrfToken: await browser.csrfToken() }
    if (callbackUrl) body.callbackUrl = callbackUrl
    const response = await browser.request("/auth/signin/nodemailer", { body })
    return { response, seen }
  }

  const linkIn = (text: string) => /https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(text)![0]

  test("a link: stored hashed, plain text and HTML, verify-request redirect, one use, opaque database session", async () => {
    const { adapter, config, browser } = await setup()
    const email = `${fresh("ada")}@example.com`
    const { response, seen } = await ask(browser, `  ${email.toUpperCase()} `, "/welcome")
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/verify-request")
    expect(location.searchParams.get("provider")).toBe("nodemailer")
    expect(location.searchParams.get("type")).toBe("email")

    const mail = await sink.waitForMessage((m) => sink.messages.indexOf(m) >= seen)
    expect(mail.to).toEqual([email]) // trimmed and lower-cased
    expect(mail.text).not.toBe("")
    expect(mail.html).not.toBe("")
    const link = new URL(linkIn(mail.text))
    expect(link.origin).toBe(ORIGIN)
    const token = link.searchParams.get("token")!
    expect(Buffer.from(token, "hex").length >= 16 || token.length >= 22).toBe(true)
    const rows = await adapter.db.selectFrom("verification_tokens").selectAll().execute()
    const mine = rows.filter((r) => (r as { identifier: string }).identifier === email)
    expect(mine).toHaveLength(1)
    expect((mine[0] as { token: string }).token).not.toBe(token)
    // Default lifetime: 24 h.
    const expires = Number(new Date((mine[0] as { expires: never }).expires))
    expect(Math.abs(expires - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000)

    const done = await browser.request(link.pathname + link.search)
    expect(done.status).toBe(302)
    expect(new URL(done.headers.get("location")!, ORIGIN).pathname).toBe("/welcome")
    const session = await browser.session()
    expect(session.user.email).toBe(email)
    const user = await adapter.getUserByEmail!(email)
    expect(user?.emailVerified).toBeInstanceOf(Date)

    // The cookie holds an opaque token; the table holds its SHA-256.
    const cookie = browser.jar.get("tessera.session-token")!
    expect(cookie).toBeDefined()
    expect(cookie.split(".")).toHaveLength(1)
    const stored = await adapter.db.selectFrom("sessions").selectAll().execute()
    const tokens = stored.map((r) => (r as { session_token: string }).session_token)
    expect(tokens).toContain(sha256(cookie))
    expect(tokens).not.toContain(cookie)

    // Second use: the error page with Verification.
    const again = await new Browser(config).request(link.pathname + link.search)
    expect(again.status).toBe(302)
    const error = new URL(again.headers.get("location")!, ORIGIN)
    expect(error.pathname).toBe("/auth/error")
    expect(error.searchParams.get("error")).toBe("Verification")
  })

  test("an expired link ends with error=Verification and no session", async () => {
    const { config, browser } = await setup()
    const email = `${fresh("bo")}@example.com`
    const { seen } = await ask(browser, email)
    const mail = await sink.waitForMessage((m) => sink.messages.indexOf(m) >= seen)
    const link = new URL(linkIn(mail.text))
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 24 * 3600_000 + 60_000)
    const other = new Browser(config)
    const response = await other.request(link.pathname + link.search)
    expect(new URL(response.headers.get("location")!, ORIGIN).searchParams.get("error")).toBe(
      "Verification",
    )
    expect(await other.session()).toBeNull()
  })

  test.each([
    ["two @", "a@b@example.com"],
    ["a quoted local part with a second address", '"eve@evil.test"@example.com'],
    ["a control character", "ada\u0007@example.com"],
    ["a list", "ada@example.com,eve@evil.test"],
  ])("%s: error=EmailSignin, no mail, no token", async (_, email) => {
    const { adapter, browser } = await setup()
    const { response } = await ask(browser, email)
    const before = sink.messages.length
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!, ORIGIN)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("EmailSignin")
    expect(await adapter.db.selectFrom("verification_tokens").selectAll().execute()).toEqual([])
    expect(sink.messages.length).toBe(before)
  })

  test("pages.newUser receives a first-time user, not a returning one", async () => {
    const { browser, config } = await setup({ pages: { newUser: "/hello" } })
    const email = `${fresh("new")}@example.com`
    for (const expected of ["/hello", "/"]) {
      const { seen } = await ask(browser, email)
      const mail = await sink.waitForMessage((m) => sink.messages.indexOf(m) >= seen)
      const link = new URL(linkIn(mail.text))
      const done = await new Browser(config).request(link.pathname + link.search)
      expect(new URL(done.headers.get("location")!, ORIGIN).pathname).toBe(expected)
    }
  })
})

describe("database sessions", () => {
  const users = { ada: { id: "u-ada", email: "ada@example.com", name: "Ada" } }
  const passwords = Credentials({
    credentials: { username: {}, password: { type: "password" } },
    authorize: ({ username, password }) =>
      password === "pw" ? (users[username as keyof typeof users] ?? null) : null,
  })

  async function signIn(config: AuthConfig) {
    const browser = new Browser(config)
    const response = await browser.request("/auth/callback/credentials", {
      body: { username: "ada", password: "pw", csrfToken: await browser.csrfToken() },
    })
    expect(response.status).toBe(302)
    return browser
  }

  test("the default with an adapter; credentials create a row; the session callback gets the stored user; sign-out deletes the row", async () => {
    const adapter = await sqlite()
    const seen: unknown[] = []
    const config = authConfig({
      adapter,
      providers: [passwords],
      callbacks: {
        session: ({ session, user }) => {
          seen.push(user)
          return session
        },
      },
    })
    const browser = await signIn(config)
    const rows = await adapter.db.selectFrom("sessions").selectAll().execute()
    expect(rows).toHaveLength(1)
    const cookie = browser.jar.get("tessera.session-token")!
    expect(cookie).toMatch(/^[0-9a-f]{64}$/)
    expect((rows[0] as { session_token: string }).session_token).toBe(sha256(cookie))

    const session = await browser.session()
    expect(session.user.email).toBe("ada@example.com")
    expect(typeof session.expires).toBe("string")
    // The stored user (AdapterUser), not the session's copy of it.
    expect(seen.at(-1)).toMatchObject({
      id: expect.any(String),
      email: "ada@example.com",
      emailVerified: null,
    })

    const out = await browser.signOut()
    expect(out.status).toBe(302)
    expect(await adapter.db.selectFrom("sessions").selectAll().execute()).toEqual([])
    expect(await browser.session()).toBeNull()
  })

  test("expiry is extended at most once per updateAge", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [passwords],
      session: { maxAge: 3600, updateAge: 600 },
    })
    const browser = await signIn(config)
    const expiresOf = async () =>
      Number(
        new Date(
          ((await adapter.db.selectFrom("sessions").selectAll().executeTakeFirst()) as never)[
            "expires"
          ],
        ),
      )
    const first = await expiresOf()
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 60_000)
    await browser.session()
    expect(await expiresOf()).toBe(first)
    vi.setSystemTime(Date.now() + 600_000)
    await browser.session()
    const extended = await expiresOf()
    expect(extended).toBeGreaterThan(first)
    vi.setSystemTime(Date.now() + 1000)
    await browser.session()
    expect(await expiresOf()).toBe(extended)
  })

  test("an expired session is none, and its row is deleted", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [passwords],
      session: { maxAge: 3600 },
    })
    const browser = await signIn(config)
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 3601_000)
    expect(await browser.session()).toBeNull()
    expect(await adapter.db.selectFrom("sessions").selectAll().execute()).toEqual([])
  })
})

describe("account linking with a real OpenID provider", () => {
  let idp: OidcProviderServer
  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`] })
  })
  afterAll(() => idp?.stop())

  async function oidcSignIn(browser: Browser, accountId: string) {
    const start = await browser.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
    return browser.request(back.url.pathname + back.url.search)
  }

  async function withExistingUser(dangerous: boolean, events: AuthConfig["events"] = {}) {
    const adapter = await sqlite()
    const accountId = fresh("eve")
    const existing = await adapter.createUser!({
      email: `${accountId}@example.test`,
      emailVerified: new Date(),
      name: "Existing",
    } as never)
    const config = authConfig({
      adapter,
      events,
      providers: [{ ...localOidcProvider(idp), allowDangerousEmailAccountLinking: dangerous }],
    })
    return { adapter, accountId, existing, config }
  }

  test("an e-mail that matches an existing user: error=OAuthAccountNotLinked, nothing linked", async () => {
    const { adapter, accountId, config } = await withExistingUser(false)
    const browser = new Browser(config)
    const response = await oidcSignIn(browser, accountId)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!, ORIGIN)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(await browser.session()).toBeNull()
    expect(await adapter.db.selectFrom("accounts").selectAll().execute()).toEqual([])
    expect(await adapter.db.selectFrom("users").selectAll().execute()).toHaveLength(1)
  })

  test("allowDangerousEmailAccountLinking links to the existing user; events fire, a throwing one breaks nothing", async () => {
    const fired: string[] = []
    const { adapter, accountId, existing, config } = await withExistingUser(true, {
      linkAccount: () => void fired.push("linkAccount"),
      createUser: () => void fired.push("createUser"),
      signIn: () => {
        fired.push("signIn")
        throw new Error("event handler failed")
      },
    })
    const browser = new Browser(config)
    const response = await oidcSignIn(browser, accountId)
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!, ORIGIN).searchParams.get("error")).toBeNull()
    expect((await browser.session()).user.email).toBe(`${accountId}@example.test`)
    expect(
      await adapter.getUserByAccount!({ provider: "local", providerAccountId: accountId }),
    ).toMatchObject({ id: existing.id })
    expect(fired).toEqual(["linkAccount", "signIn"])
    // The throwing handler is logged (at error: it is the app's fault), never thrown.
    expect(log.errors.splice(0).length).toBeGreaterThan(0)
  })

  test("an OAuth sign-in while signed in links the account to the current user", async () => {
    const adapter = await sqlite()
    const me = await adapter.createUser!({
      email: `${fresh("me")}@example.com`,
      emailVerified: new Date(),
    } as never)
    const accountId = fresh("other")
    const passwords = Credentials({
      credentials: { password: { type: "password" } },
      authorize: () => ({ id: me.id, email: me.email }),
    })
    const config = authConfig({
      adapter,
      providers: [passwords, localOidcProvider(idp)],
    })
    const browser = new Browser(config)
    await browser.request("/auth/callback/credentials", {
      body: { password: "x", csrfToken: await browser.csrfToken() },
    })
    expect((await browser.session()).user.email).toBe(me.email)
    const response = await oidcSignIn(browser, accountId)
    expect(new URL(response.headers.get("location")!, ORIGIN).searchParams.get("error")).toBeNull()
    expect(
      await adapter.getUserByAccount!({ provider: "local", providerAccountId: accountId }),
    ).toMatchObject({ id: me.id })
  })
})

describe("more of issue 4 through the public surface", () => {
  let idp: OidcProviderServer
  let sink: MailSink
  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`] })
    sink = await startMailSink()
  })
  afterAll(async () => {
    await idp?.stop()
    await sink?.stop()
  })

  test("parallel first sign-ins of one identity end with one user and one account, every one signed in", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [localOidcProvider(idp)],
    })
    const accountId = fresh("race")
    const browsers = Array.from({ length: 20 }, () => new Browser(config))
    const callbacks = await Promise.all(
      browsers.map(async (browser) => {
        const start = await browser.startSignIn("local")
        return completeOidcLogin(start.headers.get("location")!, { accountId })
      }),
    )
    const responses = await Promise.all(
      browsers.map((browser, i) =>
        browser.request(callbacks[i]!.url.pathname + callbacks[i]!.url.search),
      ),
    )
    for (const response of responses) expect(errorOfLocation(response)).toBeNull()
    expect(await adapter.db.selectFrom("users").selectAll().execute()).toHaveLength(1)
    expect(await adapter.db.selectFrom("accounts").selectAll().execute()).toHaveLength(1)
    for (const browser of browsers)
      expect((await browser.session()).user.email).toBe(`${accountId}@example.test`)
  })

  test("the adapter failing: the error page (Configuration), AdapterError logged, no 500 crash", async () => {
    const adapter = await sqlite()
    const failing = Object.assign(Object.create(Object.getPrototypeOf(adapter)), adapter, {
      createVerificationToken: async () => {
        throw new Error("disk I/O error")
      },
    })
    const config = authConfig({
      adapter: failing,
      providers: [Nodemailer({ server: sink.url, from: "app@example.com" })],
    })
    const browser = new Browser(config)
    const before = sink.messages.length
    const response = await browser.request("/auth/signin/nodemailer", {
      body: { email: "ada@example.com", csrfToken: await browser.csrfToken() },
    })
    expect(response.status).toBe(302)
    expect(errorOfLocation(response)).toBe("Configuration")
    const logged = log.errors.splice(0)
    expect(logged.map((e) => e.name)).toContain("AdapterError")
    expect(sink.messages.length).toBe(before)
  })

  test("a link without a token: 400; a link for another address: Verification", async () => {
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [Nodemailer({ server: sink.url, from: "app@example.com" })],
    })
    const browser = new Browser(config)
    const noToken = await browser.request("/auth/callback/nodemailer?email=ada%40example.com")
    expect(noToken.status).toBe(400)

    const email = `${fresh("ann")}@example.com`
    const seen = sink.messages.length
    await browser.request("/auth/signin/nodemailer", {
      body: { email, csrfToken: await browser.csrfToken() },
    })
    const mail = await sink.waitForMessage((m) => sink.messages.indexOf(m) >= seen)
    const link = new URL(/https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(mail.text)![0])
    link.searchParams.set("email", "mallory@example.com")
    const swapped = await new Browser(config).request(link.pathname + link.search)
    expect(errorOfLocation(swapped)).toBe("Verification")
    // The right link still works once after that.
    link.searchParams.set("email", email)
    const right = await browser.request(link.pathname + link.search)
    expect(errorOfLocation(right)).toBeNull()
    expect((await browser.session()).user.email).toBe(email)
  })

  test("events createUser, signIn, session, signOut fire on an e-mail sign-in with a database session", async () => {
    const adapter = await sqlite()
    const fired: string[] = []
    const event = (name: string) => () => void fired.push(name)
    const config = authConfig({
      adapter,
      providers: [Nodemailer({ server: sink.url, from: "app@example.com" })],
      events: {
        createUser: event("createUser"),
        signIn: event("signIn"),
        session: event("session"),
        signOut: event("signOut"),
      },
    })
    const browser = new Browser(config)
    const email = `${fresh("ev")}@example.com`
    const seen = sink.messages.length
    await browser.request("/auth/signin/nodemailer", {
      body: { email, csrfToken: await browser.csrfToken() },
    })
    const mail = await sink.waitForMessage((m) => sink.messages.indexOf(m) >= seen)
    const link = new URL(/https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(mail.text)![0])
    await browser.request(link.pathname + link.search)
    await browser.session()
    await browser.signOut()
    expect(fired).toEqual(["createUser", "signIn", "session", "signOut"])
  })
})

function errorOfLocation(response: Response) {
  const location = response.headers.get("location")
  return location
    ? new URL(location, ORIGIN).searchParams.get("error")
    : `status ${response.status}`
}

describe("what callbacks, events and mail senders receive (the spec's Account fields)", () => {
  let idp: OidcProviderServer
  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`] })
  })
  afterAll(() => idp?.stop())

  test("e-mail: sendVerificationRequest's parameters; the account is { type: email, providerAccountId: the address }", async () => {
    const { default: Email } = await import("@tessera/core/providers/email")
    const adapter = await sqlite()
    const sent: Record<string, unknown>[] = []
    const accounts: unknown[] = []
    const config = authConfig({
      adapter,
      providers: [Email({ sendVerificationRequest: (params) => void sent.push(params as never) })],
      callbacks: {
        signIn: ({ account }) => {
          accounts.push(account)
          return true
        },
      },
    })
    const browser = new Browser(config)
    const email = `${fresh("sv")}@example.com`
    const response = await browser.request("/auth/signin/email", {
      body: { email, csrfToken: await browser.csrfToken() },
    })
    expect(new URL(response.headers.get("location")!, ORIGIN).pathname).toBe("/auth/verify-request")
    expect(sent).toHaveLength(1)
    const params = sent[0]!
    expect(params.identifier).toBe(email)
    expect(params.url).toEqual(expect.stringContaining(`${ORIGIN}/auth/callback/email?`))
    expect(params.expires).toBeInstanceOf(Date)
    expect(params.token).toEqual(expect.any(String))
    expect(params.provider).toMatchObject({ id: "email", type: "email" })
    expect(params.request).toBeInstanceOf(Request)
    expect(params).toHaveProperty("theme")

    const url = new URL(params.url as string)
    await browser.request(url.pathname + url.search)
    expect((await browser.session()).user.email).toBe(email)
    expect(accounts.at(-1)).toMatchObject({
      type: "email",
      provider: "email",
      providerAccountId: email,
    })
  })

  test("e-mail: the signIn callback refusing before the mail: error=AccessDenied, nothing sent or stored", async () => {
    const { default: Email } = await import("@tessera/core/providers/email")
    const adapter = await sqlite()
    const sent: unknown[] = []
    const config = authConfig({
      adapter,
      providers: [Email({ sendVerificationRequest: (params) => void sent.push(params) })],
      callbacks: { signIn: () => false },
    })
    const browser = new Browser(config)
    const response = await browser.request("/auth/signin/email", {
      body: { email: "no@example.com", csrfToken: await browser.csrfToken() },
    })
    const location = new URL(response.headers.get("location")!, ORIGIN)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("AccessDenied")
    expect(sent).toEqual([])
    expect(await adapter.db.selectFrom("verification_tokens").selectAll().execute()).toEqual([])
  })

  test("e-mail without a CSRF token: error=Signin, nothing sent", async () => {
    const { default: Email } = await import("@tessera/core/providers/email")
    const sent: unknown[] = []
    const config = authConfig({
      adapter: await sqlite(),
      providers: [Email({ sendVerificationRequest: (params) => void sent.push(params) })],
    })
    const response = await new Browser(config).request("/auth/signin/email", {
      body: { email: "a@example.com" },
    })
    expect(new URL(response.headers.get("location")!, ORIGIN).searchParams.get("error")).toBe(
      "Signin",
    )
    expect(sent).toEqual([])
  })

  test("credentials: the account's providerAccountId is the id authorize returned", async () => {
    const accounts: unknown[] = []
    const config = authConfig({
      adapter: await sqlite(),
      providers: [
        Credentials({
          credentials: { password: { type: "password" } },
          authorize: () => ({ id: "user-42", email: "cred@example.com" }),
        }),
      ],
      callbacks: { signIn: ({ account }) => (accounts.push(account), true) },
    })
    const browser = new Browser(config)
    await browser.request("/auth/callback/credentials", {
      body: { password: "x", csrfToken: await browser.csrfToken() },
    })
    expect(accounts).toMatchObject([
      { type: "credentials", provider: "credentials", providerAccountId: "user-42" },
    ])
  })

  test("OIDC first sign-in: the stored account keeps the tokens, token_type lower-cased, expires_at in seconds; pages.newUser gets callbackUrl; signOut event gets the deleted session", async () => {
    const adapter = await sqlite()
    const signedOut: unknown[] = []
    const config = authConfig({
      adapter,
      pages: { newUser: "/welcome" },
      providers: [localOidcProvider(idp)],
      events: { signOut: (message) => void signedOut.push(message) },
    })
    const browser = new Browser(config)
    const accountId = fresh("tok")
    const start = await browser.startSignIn("local", { callbackUrl: "/after" })
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
    const done = await browser.request(back.url.pathname + back.url.search)
    const location = new URL(done.headers.get("location")!, ORIGIN)
    expect(location.pathname).toBe("/welcome")
    expect(new URL(location.searchParams.get("callbackUrl")!, ORIGIN).pathname).toBe("/after")

    const account = await adapter.getAccount!(accountId, "local")
    expect(account).toMatchObject({
      type: "oidc",
      provider: "local",
      providerAccountId: accountId,
      access_token: expect.any(String),
      id_token: expect.any(String),
      token_type: expect.stringMatching(/^[a-z]+$/),
    })
    const now = Date.now() / 1000
    expect(account!.expires_at).toBeGreaterThan(now)
    expect(account!.expires_at).toBeLessThan(now + 24 * 3600)

    await browser.signOut()
    expect(signedOut).toHaveLength(1)
    expect(signedOut[0]).toMatchObject({ session: { userId: expect.any(String) } })
  })
})

describe("refusals at the edges", () => {
  let idp: OidcProviderServer
  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`] })
  })
  afterAll(() => idp?.stop())

  test("linking an account that belongs to another user while signed in: OAuthAccountNotLinked, nothing moved", async () => {
    const adapter = await sqlite()
    const owner = await adapter.createUser!({
      email: `${fresh("owner")}@example.com`,
      emailVerified: new Date(),
    } as never)
    const me = await adapter.createUser!({
      email: `${fresh("me")}@example.com`,
      emailVerified: new Date(),
    } as never)
    const accountId = fresh("taken")
    await adapter.linkAccount!({
      userId: owner.id,
      type: "oidc",
      provider: "local",
      providerAccountId: accountId,
    })
    const config = authConfig({
      adapter,
      providers: [
        Credentials({
          credentials: { password: { type: "password" } },
          authorize: () => ({ id: me.id, email: me.email }),
        }),
        localOidcProvider(idp),
      ],
    })
    const browser = new Browser(config)
    await browser.request("/auth/callback/credentials", {
      body: { password: "x", csrfToken: await browser.csrfToken() },
    })
    const start = await browser.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
    const response = await browser.request(back.url.pathname + back.url.search)
    expect(errorOfLocation(response)).toBe("OAuthAccountNotLinked")
    expect(
      await adapter.getUserByAccount!({ provider: "local", providerAccountId: accountId }),
    ).toMatchObject({ id: owner.id })
    expect((await browser.session()).user.email).toBe(me.email)
  })

  test.each([
    ["a bad percent-encoding", "token=%ZZ&email=ada%40example.com"],
    ["a token of 10 kB", `token=${"a".repeat(10_000)}&email=ada%40example.com`],
    ["an address that is not one", "token=abc&email=not-an-address"],
    ["two tokens", "token=a&token=b&email=ada%40example.com"],
  ])("an e-mail link with %s: a clean 4xx or Verification, never 500", async (_, query) => {
    const { default: Email } = await import("@tessera/core/providers/email")
    const config = authConfig({
      adapter: await sqlite(),
      providers: [Email({ sendVerificationRequest: () => {} })],
    })
    const browser = new Browser(config)
    const response = await browser.request(`/auth/callback/email?${query}`)
    expect(response.status).toBeLessThan(500)
    if (response.status === 302) expect(errorOfLocation(response)).toBe("Verification")
    else expect(response.status).toBeGreaterThanOrEqual(400)
    expect(await browser.session()).toBeNull()
  })
})

describe("normalizeIdentifier and maxAge of the e-mail provider", () => {
  test("a replacement normalizer decides (a throw is EmailSignin); maxAge sets the link's lifetime", async () => {
    const { default: Email } = await import("@tessera/core/providers/email")
    const sent: { identifier: string; expires: Date }[] = []
    const adapter = await sqlite()
    const config = authConfig({
      adapter,
      providers: [
        Email({
          maxAge: 600,
          sendVerificationRequest: (params) => void sent.push(params),
          normalizeIdentifier(identifier) {
            const address = identifier.trim().toLowerCase()
            if (!address.endsWith("@corp.example")) throw new Error("Company addresses only")
            return address
          },
        }),
      ],
    })
    const browser = new Browser(config)
    const refused = await browser.request("/auth/signin/email", {
      body: { email: "ada@example.com", csrfToken: await browser.csrfToken() },
    })
    expect(errorOfLocation(refused)).toBe("EmailSignin")
    expect(sent).toEqual([])

    const accepted = await browser.request("/auth/signin/email", {
      body: { email: " Ada@Corp.Example ", csrfToken: await browser.csrfToken() },
    })
    expect(new URL(accepted.headers.get("location")!, ORIGIN).pathname).toBe("/auth/verify-request")
    expect(sent.map((s) => s.identifier)).toEqual(["ada@corp.example"])
    expect(Math.abs(sent[0]!.expires.valueOf() - (Date.now() + 600_000))).toBeLessThan(30_000)
  })
})

describe("a fault in the middle of a first sign-in", () => {
  let idp: OidcProviderServer
  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`] })
  })
  afterAll(() => idp?.stop())

  test("an Auth.js-style adapter whose linkAccount fails: the error page, AdapterError logged, no user left", async () => {
    const { MemoryAdapter } = await import("@tessera/testing")
    const memory = MemoryAdapter()
    // An adapter with the Auth.js methods only: no createUserAndAccount.
    const { createUserAndAccount: _, ...authjsStyle } = memory as typeof memory & {
      createUserAndAccount?: unknown
    }
    const adapter = {
      ...authjsStyle,
      linkAccount: async () => {
        throw new Error("connection lost")
      },
    }
    const config = authConfig({ adapter: adapter as never, providers: [localOidcProvider(idp)] })
    const browser = new Browser(config)
    const start = await browser.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, {
      accountId: fresh("fault"),
    })
    const response = await browser.request(back.url.pathname + back.url.search)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!, ORIGIN)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("Configuration")
    expect(log.errors.splice(0).map((e) => e.name)).toContain("AdapterError")
    expect(memory.store.users.size).toBe(0)
    expect(memory.store.accounts.size).toBe(0)
    expect(await browser.session()).toBeNull()
  })
})

describe("e-mail links under pressure", () => {
  test("two clicks racing: one session; a foreign callbackUrl stays on the app; the Verification page is 403", async () => {
    const { default: Email } = await import("@tessera/core/providers/email")
    const links: string[] = []
    const config = authConfig({
      adapter: await sqlite(),
      providers: [Email({ sendVerificationRequest: ({ url }) => void links.push(url) })],
    })
    const asker = new Browser(config)
    await asker.request("/auth/signin/email", {
      body: {
        email: `${fresh("race")}@example.com`,
        callbackUrl: "https://evil.example/phish",
        csrfToken: await asker.csrfToken(),
      },
    })
    const link = new URL(links[0]!)
    const clickers = [new Browser(config), new Browser(config)]
    const responses = await Promise.all(clickers.map((b) => b.request(link.pathname + link.search)))
    const errors = responses.map(errorOfLocation)
    expect(errors.filter((e) => e === null)).toHaveLength(1)
    expect(errors.filter((e) => e === "Verification")).toHaveLength(1)
    const winner = responses[errors.indexOf(null)]!
    expect(new URL(winner.headers.get("location")!, ORIGIN).origin).toBe(ORIGIN)
    const sessions = await Promise.all(clickers.map((b) => b.session()))
    expect(sessions.filter(Boolean)).toHaveLength(1)

    const page = await new Browser(config).request("/auth/error?error=Verification")
    expect(page.status).toBe(403)
  })
})
