/**
 * Red team, round 16 (holds): Sign in with Apple through `Auth()` on SQLite and the memory
 * adapter. Apple answers with `response_mode=form_post`: the callback is a cross-site POST from
 * appleid.apple.com, which carries only `SameSite=None` cookies (Tessera's check cookies, for
 * this) and never the `SameSite=Lax` session cookie. Attacked:
 *
 * - the posted `user` JSON (unsigned, it passes through the browser) naming the victim's address
 *   beside an ID Token of the attacker's: the address is the ID Token's, never the posted one;
 * - `email_verified` / `is_private_email` in every form: only `true` and Apple's `"true"` vouch;
 * - the "link Apple while signed in" flow: the victim is signed in and the callback comes back
 *   as Apple's cross-site POST with the attacker's Apple account (the browser was signed in at
 *   Apple as the attacker). The session cookie does not travel, so the callback cannot link to
 *   the victim's user: it is a sign-in of its own (the attacker's account, a user of its own).
 *   Tessera does not work around this (no SameSite=None session cookie, no link-intent cookie):
 *   an app links Apple to a signed-in user by address (verified, with
 *   `allowDangerousEmailAccountLinking`) or with `response_mode=query` and no name scope.
 * - a forged cross-site POST to the victim's callback with the attacker's own code and state
 *   (login CSRF): the victim's browser holds no such state, so it fails and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import Apple from "@tessera/core/providers/apple"
import { AppBrowser, StandIn } from "@tessera/testing"
import {
  APPLE,
  app,
  clientOptions,
  expectNotTheVictims,
  ORIGIN,
  signIn,
  standUp,
  VICTIM,
} from "./redteam16-helpers.js"

const ATTACKER = "mallory@privaterelay.appleid.com"
let standIn: StandIn
let apple: Awaited<ReturnType<typeof standUp>>

beforeAll(async () => {
  standIn = await StandIn.start()
  apple = await standUp(standIn, APPLE)
})
afterAll(() => standIn?.stop())

const appleApp = (linking: boolean, adapter: "memory" | "sqlite", victim = true) =>
  app(Apple(clientOptions(standIn, linking)), { adapter, victim })
const postedUser = (email: string) =>
  JSON.stringify({ name: { firstName: "Mallory", lastName: "M" }, email })

/** The victim's browser, signed in with their own Apple account (linked to them by address). */
async function signedInVictim(made: Awaited<ReturnType<typeof appleApp>>) {
  apple.answer.claims = { email: VICTIM, email_verified: true }
  const { browser } = await signIn(made.config, "apple", apple.issuer, {
    sub: "000001.victim",
    form: {},
  })
  expect((await browser.session()).user.email).toBe(VICTIM)
  return browser
}

/** The accounts of users other than the victim. */
const notTheVictims = async (made: Awaited<ReturnType<typeof appleApp>>) =>
  (await made.backend.accounts()).filter((account) => account.userId !== "victim")

describe.each(["memory", "sqlite"] as const)("on the %s adapter", (adapter) => {
  test("the posted `user` names the victim's address: the ID Token's address is the one used", async () => {
    for (const linking of [true, false]) {
      apple.answer.claims = { email: ATTACKER, email_verified: "true", is_private_email: "true" }
      const made = await appleApp(linking, adapter)
      const { browser, done } = await signIn(made.config, "apple", apple.issuer, {
        sub: "001111.mallory",
        form: { user: postedUser(VICTIM) },
      })
      expect(done.headers.get("location")).toBe(`${ORIGIN}/`)
      expect(await expectNotTheVictims(made.backend, done)).toMatchObject({
        victimLinked: false,
        vouched: false,
      })
      expect((await browser.session()).user).toMatchObject({ email: ATTACKER, name: "Mallory M" })
      expect((await made.backend.users()).map((user) => user.email).sort()).toEqual([
        ATTACKER,
        VICTIM,
      ])
      await made.backend.close()
    }
  })

  test.each([
    ["false", "false"],
    ["false (boolean)", false],
    ["1", 1],
    ["yes", "yes"],
    ["TRUE", "TRUE"],
    ["missing", undefined],
  ])(
    "email_verified %s (is_private_email \"true\"): the victim's address is never the victim's",
    async (_, flag) => {
      for (const linking of [true, false]) {
        apple.answer.claims = { email: VICTIM, email_verified: flag, is_private_email: "true" }
        const made = await appleApp(linking, adapter)
        const { done } = await signIn(made.config, "apple", apple.issuer, {
          sub: "001111.mallory",
          form: { user: postedUser(VICTIM) },
        })
        expect(done.headers.get("location")).toBe(
          `${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`,
        )
        expect(await expectNotTheVictims(made.backend, done)).toMatchObject({
          victimLinked: false,
          vouched: false,
          session: false,
        })
        await made.backend.close()
      }
    },
  )

  test('the control: email_verified "true" links by address with allowDangerousEmailAccountLinking', async () => {
    apple.answer.claims = { email: VICTIM, email_verified: "true", is_private_email: "false" }
    const made = await appleApp(true, adapter)
    await signIn(made.config, "apple", apple.issuer, { sub: "000001.ada", form: {} })
    expect((await made.backend.accounts()).map((account) => account.userId)).toEqual(["victim"])
    await made.backend.close()
  })

  test("signed in, the form_post callback brings the attacker's Apple account: not linked to the victim", async () => {
    const made = await appleApp(true, adapter)
    const browser = await signedInVictim(made)
    apple.answer.claims = { email: ATTACKER, email_verified: "true", is_private_email: "true" }
    const { done } = await signIn(made.config, "apple", apple.issuer, {
      sub: "001111.mallory",
      form: {},
      browser,
    })
    expect(await made.backend.accounts()).toMatchObject([
      { userId: "victim", providerAccountId: "000001.victim" },
      { providerAccountId: "001111.mallory" },
    ])
    expect(await notTheVictims(made)).toHaveLength(1)
    // A sign-in of its own: the attacker's user, whose session replaces the victim's cookie.
    expect(done.headers.get("location")).toBe(`${ORIGIN}/`)
    expect((await browser.session()).user.email).toBe(ATTACKER)
    await made.backend.close()
  })

  test("a forged cross-site POST with the attacker's own code and state: refused, the victim stays signed in", async () => {
    const made = await appleApp(true, adapter)
    const victim = await signedInVictim(made)
    apple.answer.claims = { email: ATTACKER, email_verified: "true" }
    // The attacker starts a sign-in in their own browser and keeps the callback's parameters.
    const attacker = new AppBrowser(made.config, ORIGIN)
    const start = await attacker.startSignIn("apple")
    const callback = apple.issuer.authorize(start.headers.get("location")!, "001111.mallory")
    const forged = await victim.request(`${callback.origin}${callback.pathname}`, {
      body: new URLSearchParams(callback.search),
      headers: { "sec-fetch-site": "cross-site" },
    })
    expect(forged.headers.get("location")).toMatch(new RegExp(`^${ORIGIN}/auth/(signin|error)\\?`))
    expect(await notTheVictims(made)).toEqual([])
    expect((await victim.session()).user.email).toBe(VICTIM)
    await made.backend.close()
  })
})
