/**
 * Red team 13: a copied session that is no longer recent, plus the victim's
 * password (or another first factor), for a user with a second factor. The
 * second-factor gate let a sign-in through without a code when the browser
 * was already signed in as that user (meant for linking an account from a
 * session that passed the gate); but the sign-in made a new session, with a
 * fresh sign-in time. So the copy, re-signed-in with the password alone,
 * became a recent sign-in: it could add the thief's passkey (lasting access
 * that survives "sign out everywhere" and a password change) and restart the
 * 30-day absolute lifetime, all without the code. Now the gate lets a
 * same-user sign-in through only from a session that is itself recent
 * (`session.recentSignInAge`); a stale one gets the code step like anyone.
 * Through `Auth()` with JWT and database sessions on the memory adapter.
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import { MemoryAdapter } from "@tessera/testing"
import Passkey from "@tessera/core/providers/passkey"
import { ADA, credentialsProvider, ORIGIN, signIn } from "../harness/index.js"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"
import { codeFor, enableTwoFactor, fakeClock, session, submitCode } from "../two-factor/helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  async function adaWithSecondFactor() {
    const clock = fakeClock()
    const adapter = MemoryAdapter()
    await adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
    const { config } = passkeyConfig({
      adapter,
      session: { strategy },
      providers: [credentialsProvider(), Passkey()],
    })
    const { jar } = await signIn(config)
    const factor = await enableTwoFactor(config, jar)
    return { clock, adapter, config, jar, factor }
  }

  test("an hour-old copy plus the password stops at the code; it stays stale and adds no passkey", async () => {
    const { clock, adapter, config, jar } = await adaWithSecondFactor()
    clock.nextStep(60 * 60)
    const thief = new PasskeyBrowser(config, ORIGIN)
    for (const [name, value] of jar.entries()) thief.jar.set(name, value)
    expect((await thief.options({ action: "register" })).status).toBe(403)

    const { response } = await signIn(config, undefined, { jar: thief.jar })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)

    // Still the stale copy: no passkey of the thief's can be added.
    expect((await session(config, thief.jar))?.user?.email).toBe(ADA.email)
    const options = await thief.options({ action: "register" })
    expect(options.status).toBe(403)
    expect(options.body).toMatchObject({ error: "RecentSignInRequired" })
    expect(await adapter.listAuthenticatorsByUserId!(ADA.id!)).toEqual([])
  })

  test("the owner, with her code, gets a fresh session that may add a passkey", async () => {
    const { clock, config, jar, factor } = await adaWithSecondFactor()
    clock.nextStep(60 * 60)
    const owner = new PasskeyBrowser(config, ORIGIN)
    for (const [name, value] of jar.entries()) owner.jar.set(name, value)
    await signIn(config, undefined, { jar: owner.jar })
    const done = await submitCode(config, owner.jar, codeFor(factor.secret))
    expect(done.headers.get("location")).toBe(ORIGIN)
    expect((await owner.options({ action: "register" })).status).toBe(200)
  })

  test("a recent session signing in again as its own user is not asked (linking, re-login)", async () => {
    const { clock, config, jar } = await adaWithSecondFactor()
    clock.nextStep(60)
    const { response } = await signIn(config, undefined, { jar })
    expect(response.headers.get("location")).toBe(ORIGIN)
  })
})
