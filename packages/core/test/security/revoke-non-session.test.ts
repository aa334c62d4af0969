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
 * Through `Auth()`, for JWT and database sessions, on the memory adapter and SQLite in a file.
 */
import { afterEach, expect, test, vi } from "vitest"
import { Auth } from "@tessera/core"
import { ADA, csrfToken, post, setsSession, signIn } from "../harness/index.js"
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

  test("a sign-in waiting for its second factor: 404, kept, and it still finishes", async () => {
    const clock = fakeClock()
    const { jar: owner } = await signIn(setup.config)
    const { secret } = await enableTwoFactor(setup.config, owner)
    // The owner's phone: the password is in, the code not yet.
    const phone = new Jar()
    await signIn(setup.config, undefined, { jar: phone })
    const pending = (await records()).find((r) => r.provider?.startsWith("two-factor"))
    expect(pending).toBeDefined()

    const answer = await revoke(owner, pending!.id)
    expect(answer.status).toBe(404)
    expect(answer.body.error).toBe("NotFound")
    expect((await revoke(owner, "0".repeat(32))).body).toEqual(answer.body)
    expect((await records()).map((r) => r.id)).toContain(pending!.id)

    clock.nextStep()
    expect(setsSession(await submitCode(setup.config, phone, codeFor(secret)))).toBe(true)
  })

  // The mark is kept with JWT sessions only (they adopt Auth.js cookies).
  if (strategy === "jwt")
    test("the mark of the last sign-out everywhere: 404, kept", async () => {
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

      const answer = await revoke(owner, mark!.id)
      expect(answer.status).toBe(404)
      expect(answer.body.error).toBe("NotFound")
      expect((await records()).map((r) => r.id)).toContain(mark!.id)
    })

  test("the user's own session still ends (the control)", async () => {
    const { jar: owner } = await signIn(setup.config)
    const other = new Jar()
    await signIn(setup.config, undefined, { jar: other })
    const sessions = (await records()).filter((r) => !r.provider?.includes(":"))
    const otherId = sessions.find((r) => r.id !== sessions[0]!.id)!.id
    const answer = await revoke(owner, otherId)
    expect(answer.status).toBe(200)
    expect(answer.body.revoked).toBe(otherId)
    expect((await records()).map((r) => r.id)).not.toContain(otherId)
  })
})
