/**
 * Attacks on the second factor, through `Auth()` as an attacker can drive it:
 * someone who has the password (or a mailbox, or a provider account) but not
 * the authenticator; someone who has stolen a pending cookie, or a session;
 * someone forging requests from another site; someone who copied the database.
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { MemoryAdapter } from "@tessera/testing"
import {
  get,
  HTTPS_ORIGIN,
  Jar,
  makeConfig,
  ORIGIN,
  OTHER_SECRET,
  post,
  SECRET,
  setCookie,
  setsSession,
  signIn,
} from "../harness/index.js"
import {
  codeFor,
  enableTwoFactor,
  fakeClock,
  getJson,
  postForm,
  session,
  submitCode,
} from "../two-factor/helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

const PASSWORDS: Record<string, string> = { ada: "correct horse", grace: "battery staple" }

function app(overrides: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const { config, log } = makeConfig({
    adapter,
    session: { strategy: "jwt" },
    debug: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          typeof username === "string" && PASSWORDS[username] === password
            ? { id: username, name: username, email: `${username}@example.com` }
            : null,
      }),
    ],
    ...overrides,
  })
  return { config, log, store: adapter.store }
}

const credentials = (username: string) => ({ username, password: PASSWORDS[username]! })
const PENDING = "tessera.two-factor"

/** A user with a confirmed second factor, signed out; the clock moved past the step used to confirm. */
async function withFactor(config: AuthConfig, username: string, clock: { nextStep(): void }) {
  const { jar } = await signIn(config, credentials(username))
  const factor = await enableTwoFactor(config, jar)
  clock.nextStep()
  return factor
}

describe("the password alone", () => {
  test("gets no session: /auth/session is null, and the pending cookie is no session cookie", async () => {
    const clock = fakeClock()
    const { config } = app()
    await withFactor(config, "ada", clock)
    const { response, jar } = await signIn(config, credentials("ada"))
    expect(setsSession(response)).toBe(false)
    expect(await session(config, jar)).toBeNull()
    // Presented as the session cookie: it does not decode as one (another cookie's key).
    const forged = new Jar({ "tessera.session-token": jar.get(PENDING)! })
    expect(await session(config, forged)).toBeNull()
  })

  test("nor does guessing: the lock holds against the right code, other users are unaffected", async () => {
    const clock = fakeClock()
    const { config } = app({
      rateLimit: { store: new MemoryRateLimitStore(), now: () => Date.now() },
    })
    const ada = await withFactor(config, "ada", clock)
    const grace = await withFactor(config, "grace", clock)
    const attacker = (await signIn(config, credentials("ada"))).jar
    for (let i = 0; i < 5; i++) await submitCode(config, attacker, String(100000 + i))
    const locked = await submitCode(config, attacker, codeFor(ada.secret))
    expect(locked.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=RateLimited`)
    expect(setsSession(locked)).toBe(false)
    // A fresh pending sign-in for the same user is locked too: the count is the user's.
    const fresh = (await signIn(config, credentials("ada"))).jar
    expect(setsSession(await submitCode(config, fresh, codeFor(ada.secret)))).toBe(false)
    const other = (await signIn(config, credentials("grace"))).jar
    expect(setsSession(await submitCode(config, other, codeFor(grace.secret)))).toBe(true)
  })
})

describe("the pending cookie", () => {
  test("is bound to its user: another user's valid code does not finish it", async () => {
    const clock = fakeClock()
    const { config } = app()
    await withFactor(config, "ada", clock)
    const grace = await withFactor(config, "grace", clock)
    // Grace knows Ada's password, and has her own authenticator.
    const { jar } = await signIn(config, credentials("ada"))
    const response = await submitCode(config, jar, codeFor(grace.secret))
    expect(setsSession(response)).toBe(false)
    expect(await session(config, jar)).toBeNull()
  })

  test("tampered with, made with another secret, or expired: the user starts again", async () => {
    const clock = fakeClock()
    const { config } = app()
    const { secret } = await withFactor(config, "ada", clock)
    const expired = `${ORIGIN}/auth/signin?error=TwoFactorExpired`

    const { jar } = await signIn(config, credentials("ada"))
    const value = jar.get(PENDING)!
    const tampered = new Jar({
      [PENDING]: `${value.slice(0, -3)}${value.endsWith("A") ? "B" : "A"}xx`,
    })
    expect((await submitCode(config, tampered, codeFor(secret))).headers.get("location")).toBe(
      expired,
    )

    const elsewhere = app({ secret: OTHER_SECRET })
    await withFactor(elsewhere.config, "ada", clock)
    const foreign = (await signIn(elsewhere.config, credentials("ada"))).jar.get(PENDING)!
    const replanted = new Jar({ [PENDING]: foreign })
    expect((await submitCode(config, replanted, codeFor(secret))).headers.get("location")).toBe(
      expired,
    )

    vi.setSystemTime(Date.now() + 601_000)
    const late = await submitCode(config, jar, codeFor(secret))
    expect(late.headers.get("location")).toBe(expired)
    expect(setsSession(late)).toBe(false)
    // Its page sends the user back to sign in.
    const page = await Auth(get("/auth/two-factor", { jar }), config)
    expect(page.headers.get("location")).toBe(expired)
  })

  test("is single use: a copy replayed with a later valid code is refused", async () => {
    const clock = fakeClock()
    const { config } = app()
    const { secret } = await withFactor(config, "ada", clock)
    const { jar } = await signIn(config, credentials("ada"))
    const copy = new Jar({ [PENDING]: jar.get(PENDING)! })
    expect(setsSession(await submitCode(config, jar, codeFor(secret)))).toBe(true)
    clock.nextStep()
    const replay = await submitCode(config, copy, codeFor(secret))
    expect(setsSession(replay)).toBe(false)
    expect(replay.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
  })

  test("two pending sign-ins racing with one code: one session", async () => {
    const clock = fakeClock()
    const { config } = app()
    const { secret } = await withFactor(config, "ada", clock)
    const jars = await Promise.all(
      Array.from({ length: 5 }, async () => (await signIn(config, credentials("ada"))).jar),
    )
    const code = codeFor(secret)
    const results = await Promise.all(jars.map((jar) => submitCode(config, jar, code)))
    expect(results.filter(setsSession)).toHaveLength(1)
  })

  test("is __Host-, Secure and HttpOnly on https", async () => {
    const clock = fakeClock()
    const { config } = app()
    const options = { origin: HTTPS_ORIGIN }
    const { jar: owner } = await signIn(config, credentials("ada"), options)
    const { secret } = await enableTwoFactor(config, owner, options)
    clock.nextStep()
    const { response, jar } = await signIn(config, credentials("ada"), options)
    expect(response.headers.get("location")).toBe(`${HTTPS_ORIGIN}/auth/two-factor`)
    const cookie = setCookie(response, `__Host-${PENDING}`)!
    expect(cookie.attributes).toMatchObject({ secure: true, httponly: true, path: "/" })
    expect(cookie.attributes.domain).toBeUndefined()
    const done = await submitCode(config, jar, codeFor(secret), options)
    expect(
      done.headers.getSetCookie().some((c) => c.startsWith("__Secure-tessera.session-token=")),
    ).toBe(true)
  })
})

describe("forged and unauthenticated requests", () => {
  test("every two-factor POST needs the CSRF token", async () => {
    const clock = fakeClock()
    const { config } = app()
    const { secret } = await withFactor(config, "ada", clock)
    const { jar } = await signIn(config, credentials("ada"))
    const owner = (await signIn(config, credentials("grace"))).jar
    const forged = (path: string, who: Jar, fields: Record<string, string> = {}) =>
      Auth(post(path, fields, { jar: who, headers: { origin: "https://evil.example" } }), config)
    const callback = await forged("/auth/callback/two-factor", jar, { code: codeFor(secret) })
    expect(setsSession(callback)).toBe(false)
    for (const path of ["setup", "enable", "disable"]) {
      const response = await forged(`/auth/two-factor/${path}`, owner, { code: "123456" })
      expect(response.status).toBe(403)
    }
    // Nothing was set up for grace.
    expect((await getJson(config, owner, "/auth/two-factor/status")).body).toEqual({
      enabled: false,
      pending: false,
    })
  })

  test("setup, enable, disable and status need a session: 401", async () => {
    const { config } = app()
    const jar = new Jar()
    for (const path of ["setup", "enable", "disable"]) {
      const response = await postForm(config, jar, `/auth/two-factor/${path}`, { code: "123456" })
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ error: "SessionRequired" })
    }
    expect((await getJson(config, jar, "/auth/two-factor/status")).status).toBe(401)
  })

  test("a stolen session cannot replace or remove an enabled factor without a code", async () => {
    const clock = fakeClock()
    const { config, store } = app()
    const { jar } = await signIn(config, credentials("ada"))
    const { secret } = await enableTwoFactor(config, jar)
    const before = store.twoFactors.get("ada")!.secret
    const setup = await postForm(config, jar, "/auth/two-factor/setup")
    expect(setup.status).toBe(409)
    expect(store.twoFactors.get("ada")!.secret).toBe(before)
    expect((await postForm(config, jar, "/auth/two-factor/disable")).status).toBe(400)
    // A code already used (to enable) is no current code.
    expect(
      (await postForm(config, jar, "/auth/two-factor/disable", { code: codeFor(secret) })).status,
    ).toBe(400)
    expect(store.twoFactors.get("ada")?.enabledAt).toBeInstanceOf(Date)
    clock.nextStep()
  })
})

describe("a copy of the database", () => {
  test("holds neither the key nor the recovery codes", async () => {
    fakeClock()
    const { config, store } = app()
    const { jar } = await signIn(config, credentials("ada"))
    const { secret, recoveryCodes } = await enableTwoFactor(config, jar)
    const row = store.twoFactors.get("ada")!
    expect(row.secret).not.toContain(secret)
    expect(row.secret).toMatch(/^v1\./)
    const stored = [...store.recoveryCodes.get("ada")!]
    expect(stored).toHaveLength(10)
    for (const code of recoveryCodes) {
      expect(stored.join(" ")).not.toContain(code)
      expect(stored.join(" ")).not.toContain(code.replace("-", ""))
    }
    // A row copied to another user does not open for them (the key is bound to its user).
    store.twoFactors.set("grace", { ...row, userId: "grace" })
    const { jar: graceJar } = await signIn(config, credentials("grace"))
    expect(setsSession(await submitCode(config, graceJar, codeFor(secret)))).toBe(false)
  })

  test("made with another secret is useless", async () => {
    fakeClock()
    const first = app()
    const { jar } = await signIn(first.config, credentials("ada"))
    const { secret } = await enableTwoFactor(first.config, jar)
    const adapter = MemoryAdapter(first.store)
    const { config } = makeConfig({
      secret: [OTHER_SECRET],
      adapter,
      session: { strategy: "jwt" },
      providers: (first.config.providers as never[]).slice(),
    })
    expect(SECRET).not.toBe(OTHER_SECRET)
    const attempt = (await signIn(config, credentials("ada"))).jar
    vi.setSystemTime(Date.now() + 30_000)
    expect(setsSession(await submitCode(config, attempt, codeFor(secret)))).toBe(false)
  })
})
