/**
 * Second factors and session records together, through `Auth()`, for JWT and
 * database sessions on the memory adapter and SQLite in a file. The attacker
 * holds the user's password but not their authenticator:
 *
 * - the password alone starts no session and leaves no session record (the
 *   user's list of devices never shows a half-finished sign-in, and nothing
 *   there can be revoked or used);
 * - a sign-in gets its record only once the code is accepted, with the
 *   browser it was finished in;
 * - signing out ends a sign-in of that browser still waiting for its code,
 *   and "sign out everywhere" ends every finished one.
 */
import { afterEach, expect, test, vi } from "vitest"
import { Auth } from "@tessera/core"
import { listSessions } from "@tessera/core/sessions"
import {
  ADA,
  csrfToken,
  get,
  ORIGIN,
  post,
  setCookie,
  setsSession,
  signIn,
} from "../harness/index.js"
import { describeStoredUser } from "../harness/stored-user.js"
import {
  codeFor,
  enableTwoFactor,
  fakeClock,
  Jar,
  session,
  submitCode,
} from "../two-factor/helpers.js"

const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`
const PENDING_COOKIE = "tessera.two-factor"

afterEach(() => {
  vi.useRealTimers()
})

describeStoredUser("second factors and session records", (setup) => {
  async function listAs(jar: Jar) {
    const response = await Auth(get("/auth/sessions", { jar }), setup.config)
    jar.update(response)
    return { status: response.status, body: (await response.json()) as any }
  }

  async function signOutAs(jar: Jar, fields: Record<string, string> = {}) {
    const { token } = await csrfToken(setup.config, jar)
    const response = await Auth(
      post("/auth/signout", { ...fields, csrfToken: token }, { jar }),
      setup.config,
    )
    jar.update(response)
    return response
  }

  /** The owner, signed in with a confirmed second factor (one session record). */
  async function ownerWithFactor() {
    const clock = fakeClock()
    const { jar } = await signIn(setup.config)
    const { secret } = await enableTwoFactor(setup.config, jar)
    return { clock, jar, secret }
  }

  test("the password alone: no session, no record, nothing listed; the code adds the record", async () => {
    const { clock, jar: owner, secret } = await ownerWithFactor()
    expect(await listSessions(setup.config, ADA.id!)).toHaveLength(1)

    const attacker = new Jar()
    const { response } = await signIn(setup.config, undefined, { jar: attacker })
    expect(response.headers.get("location")).toBe(TWO_FACTOR_PAGE)
    expect(setsSession(response)).toBe(false)
    expect(await session(setup.config, attacker)).toBeNull()
    expect((await listAs(attacker)).status).toBe(401)
    expect(await listSessions(setup.config, ADA.id!)).toHaveLength(1)
    expect((await listAs(owner)).body).toEqual([expect.objectContaining({ current: true })])

    // A wrong code: still nothing.
    const wrong = await submitCode(setup.config, attacker, codeFor(secret, Date.now(), 4))
    expect(setsSession(wrong)).toBe(false)
    expect(await listSessions(setup.config, ADA.id!)).toHaveLength(1)

    // The owner's phone, with the code: a second record, current there.
    const phone = new Jar()
    await signIn(setup.config, undefined, { jar: phone })
    clock.nextStep()
    const done = await submitCode(setup.config, phone, codeFor(secret))
    expect(setsSession(done)).toBe(true)
    expect(await listSessions(setup.config, ADA.id!)).toHaveLength(2)
    expect((await listAs(phone)).body.map((s: any) => s.current)).toEqual([true, false])
  })

  test("signing out ends this browser's sign-in waiting for its code", async () => {
    const { clock, secret } = await ownerWithFactor()
    const browser = new Jar()
    await signIn(setup.config, undefined, { jar: browser })
    expect(browser.get(PENDING_COOKIE)).toBeDefined()

    const out = await signOutAs(browser, { scope: "all" })
    expect(out.status).toBe(302)
    expect(setCookie(out, PENDING_COOKIE)?.attributes["max-age"]).toBe("0")
    expect(browser.get(PENDING_COOKIE)).toBeUndefined()

    // A current code no longer finishes it: the user starts again.
    clock.nextStep()
    const late = await submitCode(setup.config, browser, codeFor(secret))
    expect(setsSession(late)).toBe(false)
    expect(late.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
    expect(await listSessions(setup.config, ADA.id!)).toHaveLength(1)
  })

  test("a plain sign-out sets no two-factor cookie when there was none", async () => {
    const { jar } = await ownerWithFactor()
    const out = await signOutAs(jar)
    expect(setCookie(out, PENDING_COOKIE)).toBeUndefined()
  })

  test("sign out everywhere ends every session finished with the code", async () => {
    const { clock, jar: owner, secret } = await ownerWithFactor()
    const phone = new Jar()
    await signIn(setup.config, undefined, { jar: phone })
    clock.nextStep()
    expect(setsSession(await submitCode(setup.config, phone, codeFor(secret)))).toBe(true)
    expect(await listSessions(setup.config, ADA.id!)).toHaveLength(2)

    await signOutAs(phone, { scope: "all" })
    expect(await listSessions(setup.config, ADA.id!)).toEqual([])
    expect(await session(setup.config, owner)).toBeNull()
    expect(await session(setup.config, phone)).toBeNull()
  })
})
