/**
 * `POST /auth/sessions/revoke` ends one of the signed-in user's sessions, by id. The same
 * table holds records that are not sessions: a sign-in waiting for its second factor, and
 * (JWT sessions adopting Auth.js cookies) the mark of the last "sign out everywhere", which
 * keeps Auth.js cookies from before it from being adopted. Neither is listed, so the route
 * answered 404 for them, as for an unknown id, but deleted them all the same: the wait's
 * record gone, the phone's code was refused; the mark gone, a stolen Auth.js cookie from
 * before "sign out everywhere" was adopted again. Now they stay, and the answer is the 404 of
 * an unknown id.
 *
 * The server helper `revokeSession(config, id)` did the same, and answered `false`: it ends
 * only sessions now too, and leaves the others as they are.
 *
 * Through `Auth()` and the public helper, for JWT and database sessions, on the memory
 * adapter and SQLite in a file.
 */
import { afterEach, expect, test, vi } from "vitest"
import { Auth } from "@tessera/core"
import { revokeSession } from "@tessera/core/sessions"
import { ADA, csrfToken, makeConfig, post, setsSession, signIn } from "../harness/index.js"
import { describeStoredUser } from "../harness/stored-user.js"
import { codeFor, enableTwoFactor, fakeClock, Jar, submitCode } from "../two-factor/helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

describeStoredUser("revoking what is not a session", (setup, strategy) => {
  const records = () => setup.backend.adapter.listSessionRecords!(ADA.id!)

  async function revoke(jar: Jar, id: string) {
    const { token } = await csrfToken(setup.config, jar)
    const response = await Auth(
      post("/auth/sessions/revoke", { id, csrfToken: token }, { jar }),
      setup.config,
    )
    jar.update(response)
    return { status: response.status, body: (await response.json()) as any }
  }

  /** The owner, signed in with a second factor, and their phone waiting for its code. */
  async function waitingSignIn() {
    const clock = fakeClock()
    const { jar: owner } = await signIn(setup.config)
    const { secret } = await enableTwoFactor(setup.config, owner)
    // The owner's phone: the password is in, the code not yet.
    const phone = new Jar()
    await signIn(setup.config, undefined, { jar: phone })
    const pending = (await records()).find((r) => r.provider?.startsWith("two-factor"))
    expect(pending).toBeDefined()
    /** Whether the phone still finishes with the next code. */
    const finishes = async () => {
      clock.nextStep()
      return setsSession(await submitCode(setup.config, phone, codeFor(secret)))
    }
    return { owner, pending: pending!, finishes }
  }

  /** The owner, who signed out every other device: the mark of it. */
  async function signedOutEverywhere() {
    const { jar: owner } = await signIn(setup.config)
    await signIn(setup.config, undefined, { jar: new Jar() })
    // Sign out every other device: the Auth.js cookies from before end too (the mark).
    const { token } = await csrfToken(setup.config, owner)
    const out = await Auth(
      post("/auth/signout", { scope: "others", csrfToken: token }, { jar: owner }),
      setup.config,
    )
    owner.update(out)
    const mark = (await records()).find((r) => r.provider === "tessera:authjs-cutoff")
    expect(mark).toBeDefined()
    return { owner, mark: mark! }
  }

  /** Two sessions of the owner's: the id of the other one. */
  async function anotherSession() {
    const { jar: owner } = await signIn(setup.config)
    await signIn(setup.config, undefined, { jar: new Jar() })
    const sessions = (await records()).filter((r) => !r.provider?.includes(":"))
    return { owner, otherId: sessions.find((r) => r.id !== sessions[0]!.id)!.id }
  }

  const ids = async () => (await records()).map((r) => r.id)

  test("a sign-in waiting for its second factor: 404, kept, and it still finishes", async () => {
    const { owner, pending, finishes } = await waitingSignIn()
    const answer = await revoke(owner, pending.id)
    expect(answer.status).toBe(404)
    expect(answer.body.error).toBe("NotFound")
    expect((await revoke(owner, "0".repeat(32))).body).toEqual(answer.body)
    expect(await ids()).toContain(pending.id)
    expect(await finishes()).toBe(true)
  })

  // The mark is kept with JWT sessions only (they adopt Auth.js cookies).
  if (strategy === "jwt")
    test("the mark of the last sign-out everywhere: 404, kept", async () => {
      const { owner, mark } = await signedOutEverywhere()
      const answer = await revoke(owner, mark.id)
      expect(answer.status).toBe(404)
      expect(answer.body.error).toBe("NotFound")
      expect(await ids()).toContain(mark.id)
    })

  test("the user's own session still ends (the control)", async () => {
    const { owner, otherId } = await anotherSession()
    const answer = await revoke(owner, otherId)
    expect(answer.status).toBe(200)
    expect(answer.body.revoked).toBe(otherId)
    expect(await ids()).not.toContain(otherId)
  })

  test("revokeSession(): a sign-in waiting for its second factor is no session: false, kept", async () => {
    const { pending, finishes } = await waitingSignIn()
    expect(await revokeSession(setup.config, pending.id)).toBe(false)
    expect(await ids()).toContain(pending.id)
    expect(await finishes()).toBe(true)
  })

  if (strategy === "jwt")
    test("revokeSession(): the mark of the last sign-out everywhere: false, kept", async () => {
      const { mark } = await signedOutEverywhere()
      expect(await revokeSession(setup.config, mark.id)).toBe(false)
      expect(await ids()).toContain(mark.id)
    })

  test("revokeSession(): a session ends (true); an unknown id is false", async () => {
    const { otherId } = await anotherSession()
    expect(await revokeSession(setup.config, otherId)).toBe(true)
    expect(await ids()).not.toContain(otherId)
    expect(await revokeSession(setup.config, otherId)).toBe(false)
  })

  test("revokeSession() on an adapter without getSessionRecord: the same, by touchSessionRecord", async () => {
    const { getSessionRecord: _, ...adapter } = setup.backend.adapter
    const config = makeConfig({ ...setup.config, adapter }).config
    const { pending } = await waitingSignIn()
    expect(await revokeSession(config, pending.id)).toBe(false)
    expect(await ids()).toContain(pending.id)
    // The owner's own session, the one left.
    const [session] = (await records()).filter((r) => !r.provider?.includes(":"))
    expect(await revokeSession(config, session!.id)).toBe(true)
    expect(await ids()).not.toContain(session!.id)
  })

  // Database sessions need only listSessionRecords and deleteSessionRecords (docs/sessions.md):
  // an adapter with just those cannot write a record that is not a session, so none is there
  // to keep, and revokeSession() ends the session by its id as it did before getSessionRecord.
  if (strategy === "database")
    test("revokeSession() on a database-session adapter with only list/deleteSessionRecords", async () => {
      const {
        getSessionRecord: _g,
        touchSessionRecord: _t,
        createSessionRecord: _c,
        ...adapter
      } = setup.backend.adapter
      const config = makeConfig({ ...setup.config, adapter }).config
      const { otherId } = await anotherSession()
      expect(await revokeSession(config, otherId)).toBe(true)
      expect(await ids()).not.toContain(otherId)
      expect(await revokeSession(config, otherId)).toBe(false)
    })
})
