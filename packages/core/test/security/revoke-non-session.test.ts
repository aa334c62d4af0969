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
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { memoryBackend, sqliteBackend, type Backend } from "../harness/backends.js"
import {
  ADA,
  credentialsProvider,
  csrfToken,
  makeConfig,
  post,
  setsSession,
  signIn,
} from "../harness/index.js"
import { codeFor, enableTwoFactor, fakeClock, Jar, submitCode } from "../two-factor/helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", sqliteBackend],
] as const)("revoking what is not a session, on %s", (_name, makeBackend) => {
  let backend: Backend
  beforeEach(async () => {
    backend = await makeBackend()
    // Stored, so that JWT sessions get records (and the sign-out-everywhere mark) too.
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
        session: { strategy, revalidateAge: 0 },
      }).config
    })

    const records = () => backend.adapter.listSessionRecords!(ADA.id!)

    async function revoke(jar: Jar, id: string) {
      const { token } = await csrfToken(config, jar)
      const response = await Auth(
        post("/auth/sessions/revoke", { id, csrfToken: token }, { jar }),
        config,
      )
      jar.update(response)
      return { status: response.status, body: (await response.json()) as any }
    }

    test("a sign-in waiting for its second factor: 404, kept, and it still finishes", async () => {
      const clock = fakeClock()
      const { jar: owner } = await signIn(config)
      const { secret } = await enableTwoFactor(config, owner)
      // The owner's phone: the password is in, the code not yet.
      const phone = new Jar()
      await signIn(config, undefined, { jar: phone })
      const pending = (await records()).find((r) => r.provider?.startsWith("two-factor"))
      expect(pending).toBeDefined()

      const answer = await revoke(owner, pending!.id)
      expect(answer.status).toBe(404)
      expect(answer.body.error).toBe("NotFound")
      expect((await revoke(owner, "0".repeat(32))).body).toEqual(answer.body)
      expect((await records()).map((r) => r.id)).toContain(pending!.id)

      clock.nextStep()
      expect(setsSession(await submitCode(config, phone, codeFor(secret)))).toBe(true)
    })

    // The mark is kept with JWT sessions only (they adopt Auth.js cookies).
    if (strategy === "jwt")
      test("the mark of the last sign-out everywhere: 404, kept", async () => {
        const { jar: owner } = await signIn(config)
        await signIn(config, undefined, { jar: new Jar() })
        // Sign out every other device: the Auth.js cookies from before end too (the mark).
        const { token } = await csrfToken(config, owner)
        const out = await Auth(
          post("/auth/signout", { scope: "others", csrfToken: token }, { jar: owner }),
          config,
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
      const { jar: owner } = await signIn(config)
      const other = new Jar()
      await signIn(config, undefined, { jar: other })
      const sessions = (await records()).filter((r) => !r.provider?.includes(":"))
      const otherId = sessions.find((r) => r.id !== sessions[0]!.id)!.id
      const answer = await revoke(owner, otherId)
      expect(answer.status).toBe(200)
      expect(answer.body.revoked).toBe(otherId)
      expect((await records()).map((r) => r.id)).not.toContain(otherId)
    })
  })
})
