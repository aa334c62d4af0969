/**
 * Red team 13: `passkeysSatisfyTwoFactor` says a passkey sign-in is both
 * factors, "something you have, unlocked by something you know or are". That
 * holds only when the authenticator verified the user (the UV flag: PIN or
 * biometrics). An app that relaxes user verification (`userVerification:
 * "preferred"`, common for security keys without a PIN, or
 * `requireUserVerification: false`) accepts assertions with user presence
 * only: a touch, by whoever holds the key. Such an assertion used to skip the
 * code of a user with a second factor (one factor, a found or stolen key,
 * was a full session); now it stops at the code step like any first factor.
 * Through `Auth()` with a software authenticator.
 */
import { afterEach, expect, test, vi } from "vitest"
import Passkey from "@tessera/core/providers/passkey"
import { flags } from "@tessera/testing/webauthn-authenticator"
import { ORIGIN, setsSession } from "../harness/index.js"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"
import { codeFor, enableTwoFactor, fakeClock, submitCode } from "../two-factor/helpers.js"

const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`

afterEach(() => {
  vi.useRealTimers()
})

/** A user with a passkey and a confirmed second factor, signed out. */
async function userWithBoth(provider: ReturnType<typeof Passkey>) {
  const clock = fakeClock()
  const { config } = passkeyConfig({
    providers: [provider],
    twoFactor: { passkeysSatisfyTwoFactor: true },
  })
  const browser = new PasskeyBrowser(config)
  expect((await browser.registerNew("ada@example.com")).status).toBe(302)
  const { secret } = await enableTwoFactor(config, browser.jar)
  clock.nextStep()
  await browser.signOut()
  return { config, browser, secret }
}

/** A passkey sign-in whose authenticator reports `flagBits`. */
async function assertWith(browser: PasskeyBrowser, flagBits: number) {
  const { body } = await browser.options({ action: "authenticate" })
  const assertion = browser.authenticator.authenticate(body.options, {
    origin: browser.origin,
    flags: flagBits,
  })
  return browser.callback("authenticate", assertion)
}

for (const [name, options] of [
  ['userVerification: "preferred"', { authenticationOptions: { userVerification: "preferred" } }],
  [
    "requireUserVerification: false",
    { verifyAuthenticationOptions: { requireUserVerification: false } },
  ],
] as const) {
  test(`${name}: a touch without user verification is one factor, and the code is still asked`, async () => {
    const { config, browser, secret } = await userWithBoth(Passkey(options))
    const response = await assertWith(browser, flags.UP)
    expect(response.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(setsSession(response)).toBe(false)
    expect(await browser.session()).toBeNull()
    // The code finishes it, as after any first factor.
    const done = await submitCode(config, browser.jar, codeFor(secret))
    expect(setsSession(done)).toBe(true)
  })
}

test("a user-verified passkey still counts as both factors", async () => {
  const { browser } = await userWithBoth(
    Passkey({ authenticationOptions: { userVerification: "preferred" } }),
  )
  const response = await assertWith(browser, flags.UP | flags.UV)
  expect(response.headers.get("location")).toBe(ORIGIN)
  expect(setsSession(response)).toBe(true)
})
