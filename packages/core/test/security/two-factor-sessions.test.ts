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
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { listSessions } from "@tessera/core/sessions"
import { memoryBackend, sqliteBackend, type Backend } from "../harness/backends.js"
import {
  ADA,
  credentialsProvider,
  csrfToken,
  get,
  makeConfig,
  ORIGIN,
  post,
  setCookie,
  setsSession,
  signIn,
} from "../harness/index.js"
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

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", sqliteBackend],
] as const)("second factors and session records on %s", (_name, makeBackend) => {
  let backend: Backend
  beforeEach(async () => {
    backend = await makeBackend()
    // Stored, so that JWT sessions get records too.
    await backend.adapter.createUser!({
      ...ADA,
      id: ADA.id!,
      email: ADA.email!,
      emailVerified: null,
    })
  })
  afterEach(async () => {
    await backend.close()
  })

  describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
    let config: AuthConfig
    beforeEach(() => {
      config = makeConfig({
        adapter: backend.adapter,
        providers: [credentialsProvider()],
        // Every check asks the record: a revoked JWT session ends on its next request.
        session: { strategy, revalidateAge: 0 },
      }).config
    })

    async function listAs(jar: Jar) {
      const response = await Auth(get("/auth/sessions", { jar }), config)
      jar.update(response)
      return { status: response.status, body: (await response.json()) as any }
    }

    async function signOutAs(jar: Jar, fields: Record<string, string> = {}) {
      const { token } = await csrfToken(config, jar)
      const response = await Auth(
        post("/auth/signout", { ...fields, csrfToken: token }, { jar }),
        config,
      )
      jar.update(response)
      return response
    }

    /** The owner, signed in with a confirmed second factor (one session record). */
    async function ownerWithFactor() {
      const clock = fakeClock()
      const { jar } = await signIn(config)
      const { secret } = await enableTwoFactor(config, jar)
      return { clock, jar, secret }
    }

    test("the password alone: no session, no record, nothing listed; the code adds the record", async () => {
      const { clock, jar: owner, secret } = await ownerWithFactor()
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)

      const attacker = new Jar()
      const { response } = await signIn(config, undefined, { jar: attacker })
      expect(response.headers.get("location")).toBe(TWO_FACTOR_PAGE)
      expect(setsSession(response)).toBe(false)
      expect(await session(config, attacker)).toBeNull()
      expect((await listAs(attacker)).status).toBe(401)
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)
      expect((await listAs(owner)).body).toEqual([expect.objectContaining({ current: true })])

      // A wrong code: still nothing.
      const wrong = await submitCode(config, attacker, codeFor(secret, Date.now(), 4))
      expect(setsSession(wrong)).toBe(false)
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)

      // The owner's phone, with the code: a second record, current there.
      const phone = new Jar()
      await signIn(config, undefined, { jar: phone })
      clock.nextStep()
      const done = await submitCode(config, phone, codeFor(secret))
      expect(setsSession(done)).toBe(true)
      expect(await listSessions(config, ADA.id!)).toHaveLength(2)
      expect((await listAs(phone)).body.map((s: any) => s.current)).toEqual([true, false])
    })

    test("signing out ends this browser's sign-in waiting for its code", async () => {
      const { clock, secret } = await ownerWithFactor()
      const browser = new Jar()
      await signIn(config, undefined, { jar: browser })
      expect(browser.get(PENDING_COOKIE)).toBeDefined()

      const out = await signOutAs(browser, { scope: "all" })
      expect(out.status).toBe(302)
      expect(setCookie(out, PENDING_COOKIE)?.attributes["max-age"]).toBe("0")
      expect(browser.get(PENDING_COOKIE)).toBeUndefined()

      // A current code no longer finishes it: the user starts again.
      clock.nextStep()
      const late = await submitCode(config, browser, codeFor(secret))
      expect(setsSession(late)).toBe(false)
      expect(late.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=TwoFactorExpired`)
      expect(await listSessions(config, ADA.id!)).toHaveLength(1)
    })

    test("a plain sign-out sets no two-factor cookie when there was none", async () => {
      const { jar } = await ownerWithFactor()
      const out = await signOutAs(jar)
      expect(setCookie(out, PENDING_COOKIE)).toBeUndefined()
    })

    test("sign out everywhere ends every session finished with the code", async () => {
      const { clock, jar: owner, secret } = await ownerWithFactor()
      const phone = new Jar()
      await signIn(config, undefined, { jar: phone })
      clock.nextStep()
      expect(setsSession(await submitCode(config, phone, codeFor(secret)))).toBe(true)
      expect(await listSessions(config, ADA.id!)).toHaveLength(2)

      await signOutAs(phone, { scope: "all" })
      expect(await listSessions(config, ADA.id!)).toEqual([])
      expect(await session(config, owner)).toBeNull()
      expect(await session(config, phone)).toBeNull()
    })
  })
})
