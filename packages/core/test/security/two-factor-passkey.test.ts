/**
 * A passkey as the second factor, through `Auth()` with software
 * authenticators: after the password, `webauthn-options/passkey?action=two-factor`
 * and an assertion posted to `callback/two-factor` finish the sign-in as a
 * correct code does. And the attacks on it: someone with the password but
 * another passkey (another user's, or their own account's), no pending cookie,
 * a replayed assertion, a challenge of the passkey sign-in used for the second
 * step and the other way round; wrong answers count toward the `twoFactor` limit.
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import type { Adapter } from "@tessera/core/adapters"
import Credentials from "@tessera/core/providers/credentials"
import Passkey from "@tessera/core/providers/passkey"
import type { AuthConfig } from "@tessera/core"
import { flags, SoftAuthenticator } from "@tessera/testing/webauthn-authenticator"
import { ORIGIN, setsSession } from "../harness/index.js"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"
import { codeFor, enableTwoFactor, fakeClock, submitCode } from "../two-factor/helpers.js"

const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`
const REFUSED = `${TWO_FACTOR_PAGE}?error=Callback`
const PASSWORD = "correct horse"
const PENDING = "tessera.two-factor"
const CHALLENGE = "tessera.challenge"

afterEach(() => {
  vi.useRealTimers()
})

/** Passkeys and a password (the first factor) for the same users, second factors on. */
function app(overrides: Partial<AuthConfig> = {}) {
  const clock = fakeClock()
  const signIns: string[] = []
  let adapter: Adapter | undefined
  const setup = passkeyConfig({
    session: { strategy: "jwt" },
    twoFactor: {},
    providers: [
      Passkey(),
      Credentials({
        credentials: { email: {}, password: { type: "password" } },
        authorize: async ({ email, password }) =>
          typeof email === "string" && password === PASSWORD
            ? await adapter!.getUserByEmail!(email)
            : null,
      }),
    ],
    events: { signIn: ({ account }) => void signIns.push(account!.provider) },
    ...overrides,
  })
  adapter = setup.adapter
  return { ...setup, clock, signIns }
}

type App = ReturnType<typeof app>

/** A user with a passkey (in `browser.authenticator`) and a confirmed code, signed out. */
async function user(setup: App, email: string, withCode = true) {
  const browser = new PasskeyBrowser(setup.config)
  expect((await browser.registerNew(email)).status).toBe(302)
  const secret = withCode ? (await enableTwoFactor(setup.config, browser.jar)).secret : ""
  setup.clock.nextStep()
  await browser.signOut()
  const [credential] = browser.authenticator.credentials.values()
  return { browser, secret, credentialId: credential!.id }
}

/** The password in `browser`: the pending sign-in (302 to the two-factor page). */
async function password(browser: PasskeyBrowser, email: string) {
  const response = await browser.request("/auth/callback/credentials", {
    body: { email, password: PASSWORD, csrfToken: await browser.csrfToken() },
    headers: { origin: browser.origin },
  })
  expect(response.headers.get("location")).toBe(TWO_FACTOR_PAGE)
  return response
}

/** The authenticator's answer to `action`'s options, as `answerer` signs it. */
async function answer(browser: PasskeyBrowser, action: string, answerer = browser) {
  const { status, body } = await browser.options({ action })
  expect(status).toBe(200)
  return answerer.authenticator.authenticate(body.options, { origin: browser.origin })
}

/** POST callback/two-factor with the assertion, as the two-factor page's script does. */
async function submitPasskey(browser: PasskeyBrowser, data: unknown) {
  return browser.request("/auth/callback/two-factor", {
    body: {
      action: "two-factor",
      provider: "passkey",
      data: JSON.stringify(data),
      csrfToken: await browser.csrfToken(),
    },
    headers: { origin: browser.origin },
  })
}

describe("a passkey as the second factor", () => {
  test("finishes the sign-in the password started, as a code does", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    const grace = await user(setup, "grace@example.com")
    await password(ada.browser, "ada@example.com")
    const { status, body } = await ada.browser.options({ action: "two-factor" })
    expect(status).toBe(200)
    expect(body.action).toBe("two-factor")
    // Only the pending user's passkeys are offered.
    const offered = body.options.allowCredentials.map((c: { id: string }) => c.id)
    expect(offered).toEqual([ada.credentialId])
    expect(offered).not.toContain(grace.credentialId)
    const data = ada.browser.authenticator.authenticate(body.options, { origin: ORIGIN })
    setup.signIns.length = 0
    const done = await submitPasskey(ada.browser, data)
    expect(done.headers.get("location")).toBe(ORIGIN)
    expect(setsSession(done)).toBe(true)
    expect((await ada.browser.session()).user.email).toBe("ada@example.com")
    // The sign-in is the password's, as after a code: one signIn event, the credentials account.
    expect(setup.signIns).toEqual(["credentials"])
    expect(ada.browser.jar.get(PENDING)).toBeUndefined()
  })

  test("user presence is enough (the passkey is something held), though sign-in requires UV", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    await password(ada.browser, "ada@example.com")
    const { body } = await ada.browser.options({ action: "two-factor" })
    // Asked for as the provider asks (passed along to the authenticator), not required.
    expect(body.options.userVerification).toBe("required")
    const touch = { origin: ORIGIN, flags: flags.UP }
    const data = ada.browser.authenticator.authenticate(body.options, touch)
    expect(setsSession(await submitPasskey(ada.browser, data))).toBe(true)
    // The passkey sign-in itself still refuses a touch without user verification.
    await ada.browser.signOut()
    const signIn = await ada.browser.options({ action: "authenticate" })
    const first = ada.browser.authenticator.authenticate(signIn.body.options, touch)
    const refused = await ada.browser.callback("authenticate", first)
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=Callback`)
  })

  test("a user without passkeys gets a clear 400, and the page offers no button", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    // Grace has a code but no passkey: her passkey's account was unlinked.
    const grace = await user(setup, "grace@example.com")
    await setup.adapter.unlinkAccount!({
      provider: "passkey",
      providerAccountId: grace.credentialId,
    })
    await password(grace.browser, "grace@example.com")
    const { status, body } = await grace.browser.options({ action: "two-factor" })
    expect(status).toBe(400)
    expect(body.error).toBe("InvalidRequest")
    const page = await (await grace.browser.fetch("/auth/two-factor")).text()
    expect(page).not.toContain('data-webauthn-action="two-factor"')
    await password(ada.browser, "ada@example.com")
    const adasPage = await (await ada.browser.fetch("/auth/two-factor")).text()
    expect(adasPage).toContain('data-webauthn-action="two-factor"')
    expect(adasPage).toContain("Use a passkey")
  })

  test("without a WebAuthn provider the page offers no passkey", async () => {
    const setup = app()
    await user(setup, "ada@example.com")
    const noPasskeys = {
      ...setup.config,
      providers: setup.config.providers.filter((p) => p.id !== "passkey"),
    }
    const browser = new PasskeyBrowser(noPasskeys)
    await password(browser, "ada@example.com")
    const page = await (await browser.fetch("/auth/two-factor")).text()
    expect(page).toContain('name="code"')
    expect(page).not.toContain("data-webauthn-provider")
  })
})

describe("attacks on the passkey step", () => {
  test("the attacker's own passkey (of their own account) does not finish the victim's sign-in", async () => {
    const setup = app()
    const victim = await user(setup, "ada@example.com")
    const attacker = await user(setup, "mallory@example.com")
    setup.signIns.length = 0
    // Mallory has Ada's password: the pending sign-in is Ada's.
    await password(attacker.browser, "ada@example.com")
    const data = await answer(attacker.browser, "two-factor")
    expect(data.id).toBe(attacker.credentialId)
    const refused = await submitPasskey(attacker.browser, data)
    expect(refused.headers.get("location")).toBe(REFUSED)
    expect(setsSession(refused)).toBe(false)
    expect(await attacker.browser.session()).toBeNull()
    expect(setup.errors.at(-1)?.message).toMatch(/another user/)
    expect(setup.signIns).toEqual([])
    // Refused before anything was written: the victim's passkey still works, the counter untouched.
    const stored = await setup.adapter.getAuthenticator!(attacker.credentialId)
    expect(stored!.counter).toBe(
      attacker.browser.authenticator.credentials.get(attacker.credentialId)!.counter - 1,
    )
    await password(victim.browser, "ada@example.com")
    expect(
      setsSession(await submitPasskey(victim.browser, await answer(victim.browser, "two-factor"))),
    ).toBe(true)
  })

  test("another user's passkey on the attacker's device is refused too, with the attacker's pending sign-in", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    const grace = await user(setup, "grace@example.com")
    // Ada's pending sign-in, answered by Grace's authenticator (a shared computer, a stolen key).
    await password(ada.browser, "ada@example.com")
    const data = await answer(ada.browser, "two-factor", grace.browser)
    const refused = await submitPasskey(ada.browser, data)
    expect(refused.headers.get("location")).toBe(REFUSED)
    expect(await ada.browser.session()).toBeNull()
  })

  test("no pending cookie: the options answer 401, and an assertion is refused", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    const { status, body } = await ada.browser.options({ action: "two-factor" })
    expect(status).toBe(401)
    expect(body.error).toBe("TwoFactorExpired")
    // The assertion of a real pending sign-in, posted without its pending cookie.
    await password(ada.browser, "ada@example.com")
    const data = await answer(ada.browser, "two-factor")
    ada.browser.jar.delete(PENDING)
    const refused = await submitPasskey(ada.browser, data)
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
    expect(setsSession(refused)).toBe(false)
  })

  test("a replayed assertion is refused: with its challenge, in the same and in a new pending sign-in", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    await password(ada.browser, "ada@example.com")
    const data = await answer(ada.browser, "two-factor")
    const pending = ada.browser.jar.get(PENDING)!
    const challenge = ada.browser.jar.get(CHALLENGE)!
    expect(setsSession(await submitPasskey(ada.browser, data))).toBe(true)
    await ada.browser.signOut()
    // The same cookies and answer again (a copy of the request).
    ada.browser.jar.set(PENDING, pending)
    ada.browser.jar.set(CHALLENGE, challenge)
    const again = await submitPasskey(ada.browser, data)
    expect(setsSession(again)).toBe(false)
    // A new pending sign-in (the password again) with the old challenge and answer.
    await password(ada.browser, "ada@example.com")
    ada.browser.jar.set(CHALLENGE, challenge)
    const replay = await submitPasskey(ada.browser, data)
    expect(replay.headers.get("location")).toBe(REFUSED)
    expect(setup.errors.at(-1)?.message).toMatch(/another sign-in/)
    expect(await ada.browser.session()).toBeNull()
  })

  test("a passkey sign-in's challenge does not answer the second step", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    await password(ada.browser, "ada@example.com")
    const data = await answer(ada.browser, "authenticate")
    const refused = await submitPasskey(ada.browser, data)
    expect(refused.headers.get("location")).toBe(REFUSED)
    expect(setup.errors.at(-1)?.message).toMatch(/issued to authenticate, not to two-factor/)
    expect(await ada.browser.session()).toBeNull()
  })

  test("nor does the second step's challenge sign in with a passkey", async () => {
    const setup = app({ twoFactor: { passkeysSatisfyTwoFactor: true } })
    const ada = await user(setup, "ada@example.com")
    await password(ada.browser, "ada@example.com")
    const data = await answer(ada.browser, "two-factor")
    const refused = await ada.browser.callback("authenticate", data)
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=Callback`)
    expect(setup.errors.at(-1)?.message).toMatch(/issued to two-factor, not to authenticate/)
    expect(setsSession(refused)).toBe(false)
  })

  test("a passkey sign-in cannot answer its own second step with the same passkey", async () => {
    // Without passkeysSatisfyTwoFactor a passkey sign-in is one factor: the same credential
    // again proves nothing more. A second passkey (a security key) does.
    const setup = app()
    const browser = new PasskeyBrowser(setup.config)
    expect((await browser.registerNew("ada@example.com")).status).toBe(302)
    const key = new SoftAuthenticator()
    const adding = await browser.options()
    expect(adding.body.action).toBe("register")
    const added = await browser.callback(
      "register",
      key.register(adding.body.options, { origin: ORIGIN }),
    )
    expect(added.status).toBe(302)
    await enableTwoFactor(setup.config, browser.jar)
    setup.clock.nextStep()
    await browser.signOut()
    const [phone] = browser.authenticator.credentials.keys()
    const [securityKey] = key.credentials.keys()
    const touch = { origin: ORIGIN, flags: flags.UP }
    const signIn = await browser.signInWithPasskey()
    expect(signIn.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    const { body } = await browser.options({ action: "two-factor" })
    // The first factor's passkey is not offered again ...
    const offered = body.options.allowCredentials.map((c: { id: string }) => c.id)
    expect(offered).toEqual([securityKey])
    // ... and is refused when it answers anyway, before its counter is claimed.
    const counter = (await setup.adapter.getAuthenticator!(phone!))!.counter
    const same = browser.authenticator.authenticate(body.options, {
      ...touch,
      credentialId: phone!,
    })
    const refused = await submitPasskey(browser, same)
    expect(refused.headers.get("location")).toBe(REFUSED)
    expect(setsSession(refused)).toBe(false)
    expect((await setup.adapter.getAuthenticator!(phone!))!.counter).toBe(counter)
    const other = await browser.options({ action: "two-factor" })
    const done = await submitPasskey(browser, key.authenticate(other.body.options, touch))
    expect(setsSession(done)).toBe(true)
  })

  test("a passkey sign-in with no other passkey is offered no passkey for its second step", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    expect((await ada.browser.signInWithPasskey()).headers.get("location")).toBe(TWO_FACTOR_PAGE)
    const { status } = await ada.browser.options({ action: "two-factor" })
    expect(status).toBe(400)
    const page = await (await ada.browser.fetch("/auth/two-factor")).text()
    expect(page).not.toContain('data-webauthn-action="two-factor"')
    expect(page).toContain('name="code"')
  })

  test("two answers to one pending sign-in, each with its own challenge, sent together: one session", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    // A passkey that does not count (most synced ones): no counter step to fight over.
    Object.assign(ada.browser.authenticator.options, { counterStep: 0 })
    await password(ada.browser, "ada@example.com")
    // A copy of the browser (the pending cookie taken along) asks for a challenge of its own.
    const copy = new PasskeyBrowser(setup.config, ORIGIN, ada.browser.authenticator)
    for (const [name, value] of ada.browser.jar) copy.jar.set(name, value)
    const answers = [await answer(ada.browser, "two-factor"), await answer(copy, "two-factor")]
    const done = await Promise.all([
      submitPasskey(ada.browser, answers[0]),
      submitPasskey(copy, answers[1]),
    ])
    expect(done.filter(setsSession)).toHaveLength(1)
  })

  test("wrong answers count toward the twoFactor limit with wrong codes", async () => {
    const setup = app()
    const ada = await user(setup, "ada@example.com")
    const mallory = await user(setup, "mallory@example.com")
    await password(mallory.browser, "ada@example.com")
    for (let i = 0; i < 3; i++) {
      const data = await answer(mallory.browser, "two-factor")
      expect((await submitPasskey(mallory.browser, data)).headers.get("location")).toBe(REFUSED)
    }
    for (let i = 0; i < 2; i++) await submitCode(setup.config, mallory.browser.jar, "000000")
    // The sixth try is over the limit, even with Ada's own passkey or code.
    await password(ada.browser, "ada@example.com")
    const locked = await submitPasskey(ada.browser, await answer(ada.browser, "two-factor"))
    expect(locked.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=RateLimited`)
    expect(setsSession(locked)).toBe(false)
    const code = await submitCode(setup.config, ada.browser.jar, codeFor(ada.secret))
    expect(setsSession(code)).toBe(false)
  })
})
