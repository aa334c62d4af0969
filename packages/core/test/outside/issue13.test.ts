/**
 * Issue 13 as an outside tester reads it (the issue text, docs/passwords-and-rate-limits.md,
 * docs/email.md, docs/two-factor.md; not the sources): built-in rate limits and lockout,
 * `@tessera/core/password`, e-mailed one-time codes and confirm-first links (a real SMTP
 * sink), TOTP second factors. Everything through `Auth()` with real `Request`s, on a real
 * SQLite file or the memory adapter.
 */
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { generateHOTP } from "@oslojs/otp"
import bcrypt from "bcryptjs"
import { sql } from "kysely"
import { createClient } from "redis"
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest"
import type { AuthConfig } from "@tessera/core"
import {
  hashPassword,
  InvalidPassword,
  InvalidPasswordHash,
  verifyPassword,
} from "@tessera/core/password"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import Nodemailer from "@tessera/core/providers/nodemailer"
import Passkey from "@tessera/core/providers/passkey"
import type { SqlAdapterInstance } from "@tessera/sql"
import { RedisRateLimitStore } from "@tessera/redis"
import { MemoryAdapter, startMailSink, startRedis, type MailSink } from "@tessera/testing"
import { Browser } from "../harness/index.js"
import { outsideSetup } from "./setup.js"

const { log, sqlite, secondProcess, authConfig } = outsideSetup()

/** Every row of every table, as text: what someone holding a copy of the database reads. */
async function dumpDatabase(adapter: SqlAdapterInstance): Promise<string> {
  const tables = await sql<{
    name: string
  }>`select name from sqlite_master where type = 'table'`.execute(adapter.db)
  const rows: unknown[] = []
  for (const { name } of tables.rows)
    rows.push((await sql.raw(`select * from "${name}"`).execute(adapter.db)).rows)
  return JSON.stringify(rows)
}

let run = 0
/** A name no other test (or earlier run in this process) used: the default store is process-wide. */
const fresh = (name: string) => `${name}${Date.now().toString(36)}${++run}`

const known = new Set<string>()
const passwords = Credentials({
  credentials: { username: {}, password: { type: "password" } },
  authorize: ({ username, password }) => {
    const name = String(username)
    if (!known.has(name) || password !== "right") return null
    return { id: `id-${name}`, name, email: `${name}@example.com` }
  },
})

function base(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return authConfig({ providers: [passwords], ...overrides })
}

async function credentialsAttempt(browser: Browser, username: string, password: string) {
  const csrfToken = await browser.csrfToken()
  return browser.request("/auth/callback/credentials", {
    body: { username, password, csrfToken },
  })
}

const errorOf = (response: Response) =>
  new URL(response.headers.get("location") ?? "http://x/").searchParams.get("error")

describe("rate limits and lockout", () => {
  test("10 failed passwords per identifier lock it: the right password is refused, with RateLimited and Retry-After; others unaffected; unknown accounts look the same", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-04-01T08:07:05Z") })
    const config = base()
    const ada = fresh("ada")
    const ghost = fresh("ghost")
    const bob = fresh("bob")
    known.add(ada).add(bob)
    const browser = new Browser(config)
    const seen: Record<string, string[]> = { [ada]: [], [ghost]: [] }
    for (let i = 0; i < 10; i++) {
      for (const name of [ada, ghost]) {
        const response = await credentialsAttempt(browser, name, "wrong")
        expect(response.status).toBe(302)
        seen[name]!.push(`${response.status} ${errorOf(response)}`)
      }
    }
    expect(seen[ada]).toEqual(seen[ghost])
    expect(seen[ada]).toEqual(Array(10).fill("302 CredentialsSignin"))

    const locked = await credentialsAttempt(browser, ada, "right")
    expect(locked.status).toBe(302)
    const location = new URL(locked.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("RateLimited")
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await browser.session()).toBeNull()
    const lockedGhost = await credentialsAttempt(browser, ghost, "right")
    expect(lockedGhost.headers.get("location")).toBe(locked.headers.get("location"))

    const other = await credentialsAttempt(new Browser(config), bob, "right")
    expect(errorOf(other)).toBeNull()

    // Retry-After is when it ends: a second earlier still refused, then the password works.
    const retryAfter = Number(locked.headers.get("retry-after"))
    expect(retryAfter).toBeLessThanOrEqual(15 * 60)
    vi.setSystemTime(Date.now() + (retryAfter - 1) * 1000)
    expect(errorOf(await credentialsAttempt(browser, ada, "right"))).toBe("RateLimited")
    vi.setSystemTime(Date.now() + 1000)
    expect(errorOf(await credentialsAttempt(browser, ada, "right"))).toBeNull()
    expect(await browser.session()).not.toBeNull()
  })

  test("rateLimit overrides one rule; rateLimit: false turns every limit off", async () => {
    const name = fresh("cy")
    known.add(name)
    const strict = base({ rateLimit: { credentials: { max: 2, window: 60 } } })
    const browser = new Browser(strict)
    await credentialsAttempt(browser, name, "wrong")
    await credentialsAttempt(browser, name, "wrong")
    expect(errorOf(await credentialsAttempt(browser, name, "right"))).toBe("RateLimited")

    const off = base({ rateLimit: false })
    const name2 = fresh("dee")
    known.add(name2)
    const free = new Browser(off)
    for (let i = 0; i < 12; i++) await credentialsAttempt(free, name2, "wrong")
    const response = await credentialsAttempt(free, name2, "right")
    expect(errorOf(response)).toBeNull()
    expect(await free.session()).not.toBeNull()
  })

  test("rateLimit: false while codes are guessable warns rate-limit-codes-unguarded once", async () => {
    const config = base({ adapter: MemoryAdapter(), rateLimit: false }) // second factors on
    log.warnings.length = 0
    const browser = new Browser(config)
    await browser.session()
    await browser.session()
    expect(log.warnings.filter((w) => w === "rate-limit-codes-unguarded")).toHaveLength(1)
  })

  test("the default store holds when every request gets a new config object (SvelteKit's lazy form)", async () => {
    const name = fresh("eve")
    known.add(name)
    const browser = () => new Browser(base()) // no store given: the default one
    for (let i = 0; i < 10; i++) await credentialsAttempt(browser(), name, "wrong")
    expect(errorOf(await credentialsAttempt(browser(), name, "right"))).toBe("RateLimited")
  })

  test("the SQL store (one SQLite file) and the Redis store count for every process sharing them", async () => {
    const first = await sqlite()
    const second = secondProcess(first.path)
    const redisServer = await startRedis()
    const clients = [createClient({ url: redisServer.url }), createClient({ url: redisServer.url })]
    try {
      for (const client of clients) await client.connect()
      const pairs: [AuthConfig, AuthConfig][] = [
        [
          base({ rateLimit: { store: first.rateLimitStore() } }),
          base({ rateLimit: { store: second.rateLimitStore() } }),
        ],
        [
          base({ rateLimit: { store: RedisRateLimitStore(clients[0]!) } }),
          base({ rateLimit: { store: RedisRateLimitStore(clients[1]!) } }),
        ],
      ]
      for (const [one, two] of pairs) {
        const name = fresh("uma")
        known.add(name)
        for (let i = 0; i < 5; i++) await credentialsAttempt(new Browser(one), name, "wrong")
        for (let i = 0; i < 5; i++) await credentialsAttempt(new Browser(two), name, "wrong")
        expect(errorOf(await credentialsAttempt(new Browser(one), name, "right"))).toBe(
          "RateLimited",
        )
      }
    } finally {
      for (const client of clients) if (client.isOpen) await client.quit()
      await redisServer.stop()
    }
  })

  test("e-mail: 5 mails per address per hour, then RateLimited and no mail; IP keys only with ipHeader", async () => {
    const sent: string[] = []
    const mailer = Email({
      sendVerificationRequest: async ({ identifier }) => void sent.push(identifier),
    })
    const config = base({ adapter: MemoryAdapter(), providers: [mailer] })
    const browser = new Browser(config)
    const ask = async (email: string, headers: Record<string, string> = {}) =>
      browser.request("/auth/signin/email", {
        body: { email, csrfToken: await browser.csrfToken() },
        headers,
      })
    const address = `${fresh("fay")}@example.com`
    for (let i = 0; i < 5; i++) expect(errorOf(await ask(address))).toBeNull()
    // Case and +tag variants are the same mailbox.
    expect(errorOf(await ask(address.replace("@", "+promo@")))).toBe("RateLimited")
    const limited = await ask(address.toUpperCase())
    expect(errorOf(limited)).toBe("RateLimited")
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/)
    expect(sent).toHaveLength(5)

    // Without ipHeader, X-Forwarded-For is not a key: many addresses from one "IP" go through.
    const byIp = base({
      adapter: MemoryAdapter(),
      providers: [mailer],
      rateLimit: { emailIp: { max: 2, window: 3600 } },
    })
    const one = new Browser(byIp)
    const askFrom = async (config: AuthConfig, b: Browser) =>
      b.request("/auth/signin/email", {
        body: { email: `${fresh("g")}@example.com`, csrfToken: await b.csrfToken() },
        headers: { "x-forwarded-for": "203.0.113.9" },
      })
    for (let i = 0; i < 3; i++) expect(errorOf(await askFrom(byIp, one))).toBeNull()
    const trusting = base({
      adapter: MemoryAdapter(),
      providers: [mailer],
      rateLimit: { ipHeader: "x-forwarded-for", emailIp: { max: 2, window: 3600 } },
    })
    const two = new Browser(trusting)
    expect(errorOf(await askFrom(trusting, two))).toBeNull()
    expect(errorOf(await askFrom(trusting, two))).toBeNull()
    expect(errorOf(await askFrom(trusting, two))).toBe("RateLimited")
  })

  test("webauthn-options: a JSON action answers 429 with Retry-After and { error: RateLimited }", async () => {
    const config = base({ adapter: MemoryAdapter(), providers: [Passkey()] })
    const browser = new Browser(config)
    const email = `${fresh("hal")}@example.com`
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) {
      const response = await browser.fetch(
        `/auth/webauthn-options/passkey?action=register&email=${encodeURIComponent(email)}`,
      )
      statuses.push(response.status)
    }
    expect(statuses).toEqual(Array(10).fill(200))
    const limited = await browser.fetch(
      `/auth/webauthn-options/passkey?action=register&email=${encodeURIComponent(email)}`,
    )
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await limited.json()).toMatchObject({ error: "RateLimited" })
  })
})

describe("@tessera/core/password", () => {
  test("scrypt by default, PHC string; { valid, needsRehash }; NFKC; length limits", async () => {
    const hash = await hashPassword("ｐａｓｓword")
    expect(hash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[^$]+\$[^$]+$/)
    expect(await verifyPassword(hash, "password")).toEqual({ valid: true, needsRehash: false })
    expect(await verifyPassword(hash, "passwore")).toMatchObject({ valid: false })
    await expect(verifyPassword("$md5$not-a-hash", "password")).rejects.toBeInstanceOf(
      InvalidPasswordHash,
    )
    await expect(hashPassword("")).rejects.toBeInstanceOf(InvalidPassword)
    await expect(hashPassword("x".repeat(1025))).rejects.toBeInstanceOf(InvalidPassword)
    expect(await verifyPassword(hash, "x".repeat(1025))).toMatchObject({ valid: false })
    expect(await verifyPassword(null, "password")).toMatchObject({ valid: false })
  })

  test("bcrypt hashes from another system verify and ask for a rehash; argon2id when asked", async () => {
    const legacy = bcrypt.hashSync("hunter22", 4)
    expect(await verifyPassword(legacy, "hunter22")).toEqual({ valid: true, needsRehash: true })
    expect(await verifyPassword(legacy, "hunter23")).toMatchObject({ valid: false })
    const argon = await hashPassword("hunter22", { algorithm: "argon2id" })
    expect(argon).toMatch(/^\$argon2id\$/)
    expect(await verifyPassword(argon, "hunter22")).toMatchObject({ valid: true })
  })
})

describe("e-mail one-time codes and confirm-first links (real SMTP sink)", () => {
  let sink: MailSink
  beforeAll(async () => {
    sink = await startMailSink()
  })
  afterAll(() => sink?.stop())

  function mailConfig(
    options: Record<string, unknown>,
    adapter: AuthConfig["adapter"] = MemoryAdapter(),
  ) {
    return base({
      adapter,
      providers: [Nodemailer({ server: sink.url, from: "app@example.com", ...options })],
    })
  }

  /** Asks for a mail to `email`; resolves with the new one the sink received. */
  async function requestMail(browser: Browser, email: string) {
    const seen = sink.messages.length
    const response = await browser.request("/auth/signin/nodemailer", {
      body: { email, csrfToken: await browser.csrfToken() },
    })
    expect(response.status).toBe(302)
    const mail = await sink.waitForMessage(
      (m) => m.to.includes(email) && sink.messages.indexOf(m) >= seen,
    )
    return { response, mail }
  }

  const codeIn = (text: string) => /\b(\d{8})\b/.exec(text)?.[1]
  /** A browser of a fresh user that asked for a mail, the mail and the code in it. */
  async function mailedTo(
    name: string,
    options: Record<string, unknown>,
    adapter?: SqlAdapterInstance,
  ) {
    const config = mailConfig(options, adapter)
    const browser = new Browser(config)
    const email = `${fresh(name)}@example.com`
    const { response, mail } = await requestMail(browser, email)
    return { config, browser, email, response, mail, code: codeIn(mail.text)! }
  }

  /** Another 8-digit code than the one mailed. */
  const wrongFor = (code: string) => String((Number(code) + 1) % 1e8).padStart(8, "0")

  async function postCode(browser: Browser, email: string, code: string) {
    return browser.request("/auth/callback/nodemailer", {
      body: { email, code, csrfToken: await browser.csrfToken() },
    })
  }

  test('method: "code": an 8-digit code, stored hashed, a code form on the verify-request page, one use', async () => {
    const { config, browser, email, response, mail, code } = await mailedTo(
      "ida",
      { method: "code" },
      await sqlite(),
    )
    expect(code).toMatch(/^\d{8}$/)
    expect(mail.text).not.toMatch(/https?:\/\/\S*token=/)
    expect(await dumpDatabase(config.adapter as SqlAdapterInstance)).not.toContain(code)

    const page = await browser.fetch(response.headers.get("location")!)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toMatch(/<form[^>]*action="[^"]*\/auth\/callback\/nodemailer"/)
    expect(html).toMatch(/name="code"/)
    expect(html).toMatch(/name="csrfToken"/)

    // Without the CSRF token: refused.
    const noCsrf = await browser.request("/auth/callback/nodemailer", {
      body: { email, code },
    })
    expect(await browser.session()).toBeNull()
    expect(noCsrf.status).not.toBe(200)

    const signedIn = await postCode(browser, email, code)
    expect(signedIn.status).toBe(302)
    expect(errorOf(signedIn)).toBeNull()
    expect((await browser.session())?.user?.email).toBe(email)

    const again = await postCode(new Browser(config), email, code)
    expect(errorOf(again)).not.toBeNull()
  })

  test("5 wrong codes kill the code: the right one is refused after", async () => {
    const { browser, email, code } = await mailedTo("jo", { method: "code" })
    const wrong = wrongFor(code)
    for (let i = 0; i < 5; i++)
      expect(errorOf(await postCode(browser, email, wrong))).not.toBeNull()
    expect(errorOf(await postCode(browser, email, code))).not.toBeNull()
    expect(await browser.session()).toBeNull()
  })

  test("codes live 10 minutes", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-05-01T09:00:00Z") })
    const config = mailConfig({ method: "code" })
    const [early, late] = [new Browser(config), new Browser(config)]
    const [kim, lou] = [`${fresh("kim")}@example.com`, `${fresh("lou")}@example.com`]
    const { mail: kimMail } = await requestMail(early, kim)
    const { mail: louMail } = await requestMail(late, lou)
    vi.setSystemTime(Date.now() + 10 * 60_000 - 2000)
    expect(errorOf(await postCode(early, kim, codeIn(kimMail.text)!))).toBeNull()
    expect(await early.session()).not.toBeNull()
    vi.setSystemTime(Date.now() + 3000)
    expect(errorOf(await postCode(late, lou, codeIn(louMail.text)!))).not.toBeNull()
    expect(await late.session()).toBeNull()
  })

  test("code verification is limited per address across mails: 10 wrong codes, then the right one is refused", async () => {
    const config = mailConfig({ method: "code" })
    const browser = new Browser(config)
    const email = `${fresh("rae")}@example.com`
    for (let mailNo = 0; mailNo < 2; mailNo++) {
      const { mail } = await requestMail(browser, email)
      const wrong = wrongFor(codeIn(mail.text)!)
      for (let i = 0; i < 5; i++) await postCode(browser, email, wrong)
    }
    const { mail } = await requestMail(browser, email)
    const limited = await postCode(browser, email, codeIn(mail.text)!)
    expect(errorOf(limited)).toBe("RateLimited")
    expect(await browser.session()).toBeNull()
  })

  test('method: "both": the mail carries the code and a link; a GET with a code is refused for "code"', async () => {
    const { config, mail, code } = await mailedTo("lee", { method: "both" })
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0])
    expect(link.pathname).toBe("/auth/callback/nodemailer")
    const followed = await new Browser(config).fetch(link.pathname + link.search)
    expect(followed.status).toBe(302)
    expect(errorOf(followed)).toBeNull()

    const codeOnly = mailConfig({ method: "code" })
    const other = new Browser(codeOnly)
    const email2 = `${fresh("max")}@example.com`
    const { mail: mail2 } = await requestMail(other, email2)
    const query = new URLSearchParams({ email: email2, code: codeIn(mail2.text)! })
    await other.fetch(`/auth/callback/nodemailer?${query}`)
    expect(await other.session()).toBeNull()
    expect(code).toMatch(/^\d{8}$/)
  })

  test("confirmLink: the link shows 'Sign in as …' and only its POST signs in, once; without it a GET signs in", async () => {
    const config = mailConfig({ confirmLink: true })
    const scanner = new Browser(config)
    const email = `${fresh("ned")}@example.com`
    const { mail } = await requestMail(new Browser(config), email)
    const link = new URL(mail.text.match(/https?:\/\/\S+/)![0])
    const page = await scanner.fetch(link.pathname + link.search)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(`Sign in as ${email}`)
    expect(await scanner.session()).toBeNull()

    // The scanner's GET consumed nothing: the user's browser still signs in with the form.
    const user = new Browser(config)
    const again = await user.fetch(link.pathname + link.search)
    const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(await again.text())!
    const fields: Record<string, string> = {}
    for (const input of form[2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
      fields[input[1]!] = input[2]!.replaceAll("&amp;", "&")
    const action = form[1]!.replaceAll("&amp;", "&")
    const signedIn = await user.request(action, { body: fields })
    expect(signedIn.status).toBe(302)
    expect(errorOf(signedIn)).toBeNull()
    expect((await user.session())?.user?.email).toBe(email)
    const replay = await scanner.request(action, {
      body: { ...fields, csrfToken: await scanner.csrfToken() },
    })
    expect(errorOf(replay)).toBe("Verification")

    const plain = mailConfig({})
    const email2 = `${fresh("ola")}@example.com`
    const { mail: mail2 } = await requestMail(new Browser(plain), email2)
    const link2 = new URL(mail2.text.match(/https?:\/\/\S+/)![0])
    const clicker = new Browser(plain)
    await clicker.fetch(link2.pathname + link2.search)
    expect((await clicker.session())?.user?.email).toBe(email2)
  })
})

describe("TOTP second factor", () => {
  const codeFor = (secret: string, offsetSteps = 0) =>
    generateHOTP(
      decodeBase32IgnorePadding(secret),
      BigInt(Math.floor(Date.now() / 30_000) + offsetSteps),
      6,
    )

  async function json(browser: Browser, path: string, fields?: Record<string, string>) {
    const response = fields
      ? await browser.request(path, { body: { ...fields, csrfToken: await browser.csrfToken() } })
      : await browser.fetch(path)
    return { status: response.status, body: await response.json(), response }
  }

  async function setUp(config: AuthConfig, name: string) {
    const browser = new Browser(config)
    await credentialsAttempt(browser, name, "right")
    expect(await browser.session()).not.toBeNull()
    const setup = await json(browser, "/auth/two-factor/setup", {})
    expect(setup.status).toBe(200)
    return { browser, factor: setup.body as Record<string, any> }
  }

  async function firstFactor(config: AuthConfig, name: string) {
    const browser = new Browser(config)
    const response = await credentialsAttempt(browser, name, "right")
    return { browser, response }
  }

  async function secondFactor(browser: Browser, code: string) {
    return browser.request("/auth/callback/two-factor", {
      body: { code, csrfToken: await browser.csrfToken() },
    })
  }

  test("setup, enable, sign in with a code, codes used once, recovery codes, disable", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-06-01T12:00:05Z") })
    const config = base({ adapter: await sqlite() })
    const name = fresh("pia")
    known.add(name)

    // Only for the signed-in user, with the CSRF token.
    const anonymous = await json(new Browser(config), "/auth/two-factor/setup", {})
    expect(anonymous.status).toBe(401)
    const { browser, factor } = await setUp(config, name)
    const noCsrf = await browser.request("/auth/two-factor/setup", { method: "POST", body: {} })
    expect(noCsrf.status).not.toBe(200)

    expect(Object.keys(factor).sort()).toEqual(["qr", "recoveryCodes", "secret", "uri"])
    expect(factor.uri).toMatch(/^otpauth:\/\/totp\//)
    const uri = new URL(factor.uri)
    expect(uri.searchParams.get("secret")).toBe(factor.secret)
    // Authenticator-app defaults: SHA-1, 6 digits, 30 s (stated, or left to the defaults).
    expect(uri.searchParams.get("algorithm") ?? "SHA1").toBe("SHA1")
    expect(uri.searchParams.get("digits") ?? "6").toBe("6")
    expect(uri.searchParams.get("period") ?? "30").toBe("30")
    expect(factor.qr).toMatch(/^data:image\/svg\+xml/)
    expect(factor.recoveryCodes).toHaveLength(10)
    expect(new Set(factor.recoveryCodes).size).toBe(10)

    // Not active until confirmed: a sign-in still gets its session directly.
    expect((await json(browser, "/auth/two-factor/status")).body).toEqual({
      enabled: false,
      pending: true,
    })
    const before = await firstFactor(config, name)
    expect(await before.browser.session()).not.toBeNull()

    const wrong = await json(browser, "/auth/two-factor/enable", { code: "000000" })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ error: "TwoFactor" })
    const enabled = await json(browser, "/auth/two-factor/enable", { code: codeFor(factor.secret) })
    expect(enabled.status).toBe(200)
    expect(enabled.body).toEqual({ enabled: true })
    // Neither the key nor a recovery code is in the database as shown.
    const stored = await dumpDatabase(config.adapter as SqlAdapterInstance)
    expect(stored).not.toContain(factor.secret)
    for (const recovery of factor.recoveryCodes) expect(stored).not.toContain(recovery)

    // A password alone: no session, a pending cookie, the two-factor page.
    // (Two steps on: the step after the one enable used is now the previous step.)
    vi.setSystemTime(Date.now() + 60_000)
    const { browser: next, response } = await firstFactor(config, name)
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/two-factor")
    expect([...next.jar.keys()]).toContain("tessera.two-factor")
    expect([...next.jar.keys()].some((k) => k.startsWith("tessera.session-token"))).toBe(false)
    expect(await next.session()).toBeNull()
    const page = await next.fetch("/auth/two-factor")
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/action="[^"]*\/auth\/callback\/two-factor"/)

    const bad = await secondFactor(next, "123456")
    expect(new URL(bad.headers.get("location")!).pathname).toBe("/auth/two-factor")
    expect(errorOf(bad)).toBe("TwoFactor")
    // The previous step's code is inside the window.
    const code = codeFor(factor.secret, -1)
    const good = await secondFactor(next, code)
    expect(good.status).toBe(302)
    expect(errorOf(good)).toBeNull()
    expect((await next.session())?.user?.name).toBe(name)

    // The same code again (another browser): refused; two steps ahead, outside the window: refused.
    const replayer = (await firstFactor(config, name)).browser
    expect(errorOf(await secondFactor(replayer, code))).toBe("TwoFactor")
    expect(errorOf(await secondFactor(replayer, codeFor(factor.secret, 2)))).toBe("TwoFactor")
    expect(await replayer.session()).toBeNull()

    // A recovery code works once.
    const recovery = factor.recoveryCodes[0] as string
    expect(errorOf(await secondFactor(replayer, recovery))).toBeNull()
    expect(await replayer.session()).not.toBeNull()
    const third = (await firstFactor(config, name)).browser
    expect(errorOf(await secondFactor(third, recovery))).toBe("TwoFactor")

    vi.setSystemTime(Date.now() + 30_000)
    const disabled = await json(next, "/auth/two-factor/disable", { code: codeFor(factor.secret) })
    expect(disabled.status).toBe(200)
    expect(disabled.body).toEqual({ enabled: false })
    const after = await firstFactor(config, name)
    expect(await after.browser.session()).not.toBeNull()
  })

  test("enable and disable are JSON actions: wrong codes count, then 429 with Retry-After", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-06-03T12:00:05Z") })
    const config = base({ adapter: MemoryAdapter() })
    const name = fresh("sam")
    known.add(name)
    const { browser, factor } = await setUp(config, name)
    for (let i = 0; i < 5; i++)
      expect((await json(browser, "/auth/two-factor/enable", { code: "000000" })).status).toBe(400)
    const limited = await json(browser, "/auth/two-factor/enable", { code: codeFor(factor.secret) })
    expect(limited.status).toBe(429)
    expect(Number(limited.response.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(limited.body).toMatchObject({ error: "RateLimited" })
  })

  test("any first factor: an e-mail sign-in of a user with a second factor waits for the code", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-06-04T12:00:05Z") })
    const links: string[] = []
    const mailer = Email({ sendVerificationRequest: async ({ url }) => void links.push(url) })
    const config = base({ adapter: MemoryAdapter(), providers: [mailer] })
    const email = `${fresh("tao")}@example.com`
    const signInByMail = async () => {
      const browser = new Browser(config)
      await browser.request("/auth/signin/email", {
        body: { email, csrfToken: await browser.csrfToken() },
      })
      const link = new URL(links.pop()!)
      return { browser, response: await browser.fetch(link.pathname + link.search) }
    }
    const { browser } = await signInByMail()
    const factor = (await json(browser, "/auth/two-factor/setup", {})).body
    expect(
      (await json(browser, "/auth/two-factor/enable", { code: codeFor(factor.secret) })).status,
    ).toBe(200)
    vi.setSystemTime(Date.now() + 30_000)

    const { browser: next, response } = await signInByMail()
    expect(new URL(response.headers.get("location")!).pathname).toBe("/auth/two-factor")
    expect(await next.session()).toBeNull()
    await secondFactor(next, codeFor(factor.secret))
    expect((await next.session())?.user?.email).toBe(email)
  })

  test("wrong codes count toward the limit: after 5 the right code is refused; pages.twoFactor moves the page", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-06-02T12:00:05Z") })
    const config = base({ adapter: MemoryAdapter(), pages: { twoFactor: "/login/code" } })
    const name = fresh("quinn")
    known.add(name)
    const { browser, factor } = await setUp(config, name)
    await json(browser, "/auth/two-factor/enable", { code: codeFor(factor.secret) })
    vi.setSystemTime(Date.now() + 30_000)

    const { browser: next, response } = await firstFactor(config, name)
    expect(new URL(response.headers.get("location")!).pathname).toBe("/login/code")
    for (let i = 0; i < 5; i++)
      expect(errorOf(await secondFactor(next, "000000"))).toBe("TwoFactor")
    const limited = await secondFactor(next, codeFor(factor.secret))
    expect(errorOf(limited)).toBe("RateLimited")
    expect(await next.session()).toBeNull()
  })
})
