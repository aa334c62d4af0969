/**
 * TOTP second factors end to end through `Auth()`: setup (key, QR code,
 * recovery codes), confirmation, the pending step after every kind of first
 * factor (credentials, e-mail through a real SMTP server, OAuth, passkeys),
 * recovery codes, disabling, and the rate limit on wrong codes. On the memory
 * adapter, SQLite in a file and PostgreSQL; the clock is faked (`Date` only).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Nodemailer from "@tessera/core/providers/nodemailer"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { startMailSink, type MailSink } from "@tessera/testing"
import { memoryBackend, PostgresFixture, sqliteBackend, type Backend } from "../harness/backends.js"
import {
  ADA,
  credentialsProvider,
  get,
  makeConfig,
  ORIGIN,
  setCookie,
  setsSession,
  signIn,
} from "../harness/index.js"
import { linkIn, requestLink, uniqueAddress, follow } from "../flows/email/fixtures.js"
import { oauthSignIn, startStandin, type Standin } from "../flows/sign-in/loopback-oauth.js"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"
import {
  codeFor,
  enableTwoFactor,
  fakeClock,
  getJson,
  Jar,
  postForm,
  session,
  submitCode,
} from "./helpers.js"

let sink: MailSink
let standin: Standin
const postgres = new PostgresFixture()
beforeAll(async () => {
  ;[sink, standin] = await Promise.all([startMailSink(), startStandin(), postgres.start()])
}, 60_000)
afterAll(async () => {
  await Promise.all([sink?.stop(), standin?.stop(), postgres.stop()])
})
afterEach(() => {
  vi.useRealTimers()
})

const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", sqliteBackend],
  ["postgres", () => postgres.backend()],
] as const)("two-factor on %s", (_name, makeBackend) => {
  let backend: Backend
  let config: AuthConfig
  beforeEach(async () => {
    backend = await makeBackend()
    ;({ config } = makeConfig({
      adapter: backend.adapter,
      session: { strategy: "jwt" },
      debug: true,
      providers: [credentialsProvider()],
    }))
  })
  afterEach(async () => {
    await backend.close()
  })

  test("setup: a key, its otpauth URI and QR code, 10 recovery codes; active only once confirmed", async () => {
    fakeClock()
    const { jar } = await signIn(config)
    expect(await getJson(config, jar, "/auth/two-factor/status")).toEqual({
      status: 200,
      body: { enabled: false, pending: false },
    })
    const setup = await postForm(config, jar, "/auth/two-factor/setup")
    expect(setup.status).toBe(200)
    expect(setup.headers.get("cache-control")).toContain("no-store")
    const factor = await setup.json()
    expect(factor.secret).toMatch(/^[A-Z2-7]{32}$/) // 160 bits
    const uri = new URL(factor.uri)
    expect(uri.protocol).toBe("otpauth:")
    expect(uri.host).toBe("totp")
    expect(decodeURIComponent(uri.pathname)).toBe(`/localhost:3000:${ADA.id}`)
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: "localhost:3000",
      algorithm: "SHA1",
      secret: factor.secret,
      period: "30",
      digits: "6",
    })
    expect(factor.qr).toMatch(/^data:image\/svg\+xml;base64,/)
    const svg = atob(factor.qr.slice(factor.qr.indexOf(",") + 1))
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    expect(svg).not.toMatch(/<script|on\w+=/i)
    expect(factor.recoveryCodes).toHaveLength(10)
    for (const code of factor.recoveryCodes) expect(code).toMatch(/^[2-9a-z]{5}-[2-9a-z]{5}$/)
    expect(new Set(factor.recoveryCodes).size).toBe(10)
    expect((await getJson(config, jar, "/auth/two-factor/status")).body).toEqual({
      enabled: false,
      pending: true,
    })

    // Not confirmed: signing in asks for nothing.
    const again = await signIn(config)
    expect(setsSession(again.response)).toBe(true)

    // Confirming needs a current code of this key.
    const wrong = await postForm(config, jar, "/auth/two-factor/enable", {
      code: codeFor(factor.secret, Date.now(), 5),
    })
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toEqual({ error: "TwoFactor" })
    const right = await postForm(config, jar, "/auth/two-factor/enable", {
      code: codeFor(factor.secret),
    })
    expect(right.status).toBe(200)
    expect(await right.json()).toEqual({ enabled: true })
    expect((await getJson(config, jar, "/auth/two-factor/status")).body).toEqual({
      enabled: true,
      pending: false,
    })
  })

  test("credentials first: no session, a pending cookie and the two-factor page; the code finishes the sign-in, once", async () => {
    const clock = fakeClock()
    const { jar: owner } = await signIn(config)
    const { secret } = await enableTwoFactor(config, owner)
    clock.nextStep()

    const jar = new Jar()
    const { response } = await signIn(
      config,
      { username: "ada", password: "correct horse", callbackUrl: "/dashboard" },
      { jar },
    )
    expect(response.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(setsSession(response)).toBe(false)
    const pending = setCookie(response, "tessera.two-factor")!
    expect(pending.attributes.httponly).toBe(true)
    expect(pending.attributes["max-age"]).toBe("600")
    expect(pending.attributes.path).toBe("/")
    expect(await session(config, jar)).toBeNull()

    // The page: a labelled code field, the CSRF token, posting to callback/two-factor.
    const page = await Auth(get("/auth/two-factor", { jar }), config)
    jar.update(page)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(`action="${ORIGIN}/auth/callback/two-factor"`)
    expect(html).toContain('<label for="two-factor-code">')
    expect(html).toContain('autocomplete="one-time-code"')
    // The field takes recovery codes too (letters): a phone must not get a digits-only keypad.
    expect(html).toMatch(/<input id="two-factor-code"[^>]*>/)
    expect(/<input id="two-factor-code"[^>]*>/.exec(html)![0]).not.toContain('inputmode="numeric"')
    expect(html).toMatch(/name="csrfToken" value="[0-9a-f]{64}"/)

    const wrong = await submitCode(config, jar, codeFor(secret, Date.now(), 3))
    expect(wrong.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=TwoFactor`)
    expect(setsSession(wrong)).toBe(false)
    const wrongPage = await (
      await Auth(get("/auth/two-factor?error=TwoFactor", { jar }), config)
    ).text()
    expect(wrongPage).toContain('role="alert"')

    const code = codeFor(secret)
    const done = await submitCode(config, jar, code)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(setsSession(done)).toBe(true)
    expect(setCookie(done, "tessera.two-factor")?.attributes["max-age"]).toBe("0")
    expect((await session(config, jar)).user).toMatchObject({ name: ADA.name, email: ADA.email })

    // The same code never works again, not even in another sign-in.
    const other = new Jar()
    await signIn(config, undefined, { jar: other })
    expect(setsSession(await submitCode(config, other, code))).toBe(false)
    clock.nextStep()
    expect(setsSession(await submitCode(config, other, codeFor(secret)))).toBe(true)
  })

  test("a recovery code finishes a sign-in once; disabling needs a current code", async () => {
    const clock = fakeClock()
    const { jar: owner } = await signIn(config)
    const { secret, recoveryCodes } = await enableTwoFactor(config, owner)

    const jar = new Jar()
    await signIn(config, undefined, { jar })
    // Typed with capitals and without the dash: the same code.
    const typed = recoveryCodes[3]!.replace("-", " ").toUpperCase()
    expect(setsSession(await submitCode(config, jar, typed))).toBe(true)
    const second = new Jar()
    await signIn(config, undefined, { jar: second })
    expect(setsSession(await submitCode(config, second, recoveryCodes[3]!))).toBe(false)

    // Disabling: a wrong code changes nothing, a current one removes the factor.
    const refused = await postForm(config, owner, "/auth/two-factor/disable", { code: "000000" })
    expect(refused.status).toBe(400)
    expect((await getJson(config, owner, "/auth/two-factor/status")).body.enabled).toBe(true)
    clock.nextStep()
    const disabled = await postForm(config, owner, "/auth/two-factor/disable", {
      code: codeFor(secret),
    })
    expect(await disabled.json()).toEqual({ enabled: false })
    const plain = await signIn(config)
    expect(setsSession(plain.response)).toBe(true)
    // The pending sign-in started before disabling is void.
    const stale = await submitCode(config, second, recoveryCodes[4]!)
    expect(stale.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
  })

  test("5 wrong codes lock the user's second step for a while, even against the right code", async () => {
    const clock = fakeClock()
    const limited = makeConfig({
      adapter: backend.adapter,
      session: { strategy: "jwt" },
      providers: [credentialsProvider()],
      rateLimit: { store: new MemoryRateLimitStore(), now: () => Date.now() },
    }).config
    const { jar: owner } = await signIn(limited)
    const { secret } = await enableTwoFactor(limited, owner)
    clock.nextStep()
    const jar = new Jar()
    await signIn(limited, undefined, { jar })
    for (let i = 0; i < 5; i++) await submitCode(limited, jar, "123456")
    const locked = await submitCode(limited, jar, codeFor(secret))
    expect(locked.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=RateLimited`)
    expect(setsSession(locked)).toBe(false)
    // Wrong codes at disable count toward the same limit.
    expect(
      (await postForm(limited, owner, "/auth/two-factor/disable", { code: codeFor(secret) }))
        .status,
    ).toBe(429)
    clock.nextStep(30 * 60)
    const later = await signIn(limited, undefined, { jar })
    expect(later.response.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(setsSession(await submitCode(limited, jar, codeFor(secret)))).toBe(true)
  })
})

describe("every first factor goes through the gate", () => {
  test("e-mail link (real SMTP), with database sessions", async () => {
    const clock = fakeClock()
    const backend = await sqliteBackend()
    try {
      const { config } = makeConfig({
        adapter: backend.adapter,
        providers: [Nodemailer({ server: sink.url, from: "auth@example.com" })],
      })
      const address = uniqueAddress()
      const first = await requestLink(config, address)
      const { jar: owner } = await follow(
        config,
        linkIn(await sink.waitForMessage((m) => m.to.includes(address))),
        first.jar,
      )
      expect((await session(config, owner)).user.email).toBe(address)
      const { secret } = await enableTwoFactor(config, owner)
      clock.nextStep()

      const { jar } = await requestLink(config, address)
      const mails = sink.messages.filter((m) => m.to.includes(address))
      const link = linkIn(mails.at(-1)!)
      const landed = await follow(config, link, jar)
      expect(landed.response.headers.get("location")).toBe(TWO_FACTOR_PAGE)
      expect(setsSession(landed.response)).toBe(false)
      // The owner's session from before, and the wait's record (no session: no token to it).
      const waiting = await backend.sessions()
      expect(waiting.map((row) => row.provider)).toEqual(
        expect.arrayContaining(["two-factor:nodemailer", "nodemailer"]),
      )
      expect(waiting).toHaveLength(2)
      expect(await session(config, jar)).toBeNull()
      const done = await submitCode(config, jar, codeFor(secret))
      expect(setsSession(done)).toBe(true)
      // The wait's record ended with the step; the new session has one of its own.
      const after = await backend.sessions()
      expect(after.map((row) => row.provider)).toEqual(["nodemailer", "nodemailer"])
      expect((await session(config, jar)).user.email).toBe(address)
    } finally {
      await backend.close()
    }
  })

  test("OAuth, keeping the account's tokens for the jwt callback", async () => {
    const clock = fakeClock()
    const backend = memoryBackend()
    const seen: unknown[] = []
    const { config } = makeConfig({
      adapter: backend.adapter,
      session: { strategy: "jwt" },
      providers: [standin.provider()],
      callbacks: {
        jwt: ({ token, account }) => {
          if (account) seen.push(account.access_token)
          return token
        },
      },
    })
    const profile = { id: "oauth-1", email: "o@example.com", name: "O" }
    const { jar: owner } = await oauthSignIn(config, standin, profile)
    const { secret } = await enableTwoFactor(config, owner)
    clock.nextStep()
    seen.length = 0
    const { response, jar } = await oauthSignIn(config, standin, profile)
    expect(response.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(seen).toEqual([])
    const done = await submitCode(config, jar, codeFor(secret))
    expect(setsSession(done)).toBe(true)
    expect(seen).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)])
  })

  test("passkeys, unless passkeysSatisfyTwoFactor", async () => {
    const clock = fakeClock()
    for (const satisfies of [false, true]) {
      const { config } = passkeyConfig({ twoFactor: { passkeysSatisfyTwoFactor: satisfies } })
      const browser = new PasskeyBrowser(config)
      await browser.registerNew(`pk-${satisfies}@example.com`)
      await enableTwoFactor(config, browser.jar)
      clock.nextStep()
      await browser.signOut()
      const response = await browser.signInWithPasskey()
      expect(response.headers.get("location")).toBe(satisfies ? ORIGIN : TWO_FACTOR_PAGE)
      expect(setsSession(response)).toBe(satisfies)
    }
  })
})

describe("configuration and routes", () => {
  test("off with twoFactor: false, or with an adapter without the methods: the routes are 404", async () => {
    const backend = memoryBackend()
    const { config } = makeConfig({ adapter: backend.adapter, twoFactor: false })
    expect((await Auth(get("/auth/two-factor/status"), config)).status).toBe(404)
    expect((await Auth(get("/auth/two-factor"), config)).status).toBe(404)
    const { config: none } = makeConfig({})
    expect((await Auth(get("/auth/two-factor/status"), none)).status).toBe(404)
  })

  test("the 404 says what turns second factors on, for the app's developer", async () => {
    // An app without an adapter (or with twoFactor: false) that calls the setup route.
    for (const overrides of [{}, { adapter: memoryBackend().adapter, twoFactor: false as const }]) {
      const { config } = makeConfig(overrides)
      const response = await Auth(get("/auth/two-factor/status"), config)
      expect(response.status).toBe(404)
      const body = (await response.json()) as { error: string; message: string }
      expect(body.error).toBe("UnknownAction")
      expect(body.message).toMatch(/adapter/)
      expect(body.message).toMatch(/twoFactor: false/)
    }
  })

  test("asked for with an adapter that cannot store it: a configuration error", async () => {
    const { config, log } = makeConfig({ twoFactor: {} })
    expect((await Auth(get("/auth/session"), config)).status).toBe(500)
    expect(log.errors[0]?.message).toMatch(/createTwoFactor/)
  })

  test("a provider may not take the id two-factor", async () => {
    const { config, log } = makeConfig({
      adapter: memoryBackend().adapter,
      providers: [credentialsProvider({ id: "two-factor" })],
    })
    expect((await Auth(get("/auth/session"), config)).status).toBe(500)
    expect(log.errors[0]?.message).toMatch(/two-factor/)
  })

  test("issuer, pages.twoFactor and a custom basePath", async () => {
    const clock = fakeClock()
    const { config } = makeConfig({
      adapter: memoryBackend().adapter,
      session: { strategy: "jwt" },
      basePath: "/api/auth",
      twoFactor: { issuer: "Acme" },
      pages: { twoFactor: "/verify" },
    })
    const options = { basePath: "/api/auth" }
    const { jar: owner } = await signIn(config, undefined, options)
    const factor = await enableTwoFactor(config, owner, options)
    expect(factor.uri).toMatch(/^otpauth:\/\/totp\/Acme:user-1\?issuer=Acme&/)
    clock.nextStep()
    const { response, jar } = await signIn(config, undefined, { ...options, jar: new Jar() })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/verify`)
    const page = await Auth(get("/api/auth/two-factor?error=TwoFactor", { jar }), config)
    expect(page.headers.get("location")).toBe(`${ORIGIN}/verify?error=TwoFactor`)
    const wrong = await submitCode(config, jar, "000000", options)
    expect(wrong.headers.get("location")).toBe(`${ORIGIN}/verify?error=TwoFactor`)
    const done = await submitCode(config, jar, codeFor(factor.secret), options)
    expect(setsSession(done)).toBe(true)
  })
})
