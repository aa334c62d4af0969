/**
 * A sign-in waiting for its second factor when the owner ends every session.
 *
 * The attacker has the password and is at the code step in their browser;
 * the owner sees the alert, changes the password, and the app calls
 * `revokeUserSessions` (or the owner signs out everywhere). The step waiting
 * in the attacker's browser was an encrypted cookie that no record stood
 * behind, so it survived: a code obtained within `twoFactor.maxAge` (a
 * phished one, say) still finished the sign-in. Now the wait has a record,
 * ended with the user's sessions, and the step cannot finish without it.
 *
 * The record is not a session: it is never listed, counted or announced.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { listSessions, revokeUserSessions } from "@tessera/core/sessions"
import { MemoryAdapter } from "@tessera/testing"
import { ADA, makeConfig, setsSession, signIn } from "../harness/index.js"
import {
  codeFor,
  enableTwoFactor,
  fakeClock,
  Jar,
  postForm,
  submitCode,
} from "../two-factor/helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  let config: AuthConfig
  let adapter: ReturnType<typeof MemoryAdapter>
  let revoked: string[]
  beforeEach(async () => {
    adapter = MemoryAdapter()
    revoked = []
    await adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
    config = makeConfig({
      adapter,
      session: { strategy, revalidateAge: 0 },
      events: { sessionRevoked: ({ session }) => void revoked.push(session.id) },
    }).config
  })

  /** The owner signed in with a second factor, and an attacker at the code step elsewhere. */
  async function ownerAndAttacker() {
    const clock = fakeClock()
    const { jar: owner } = await signIn(config)
    const { secret } = await enableTwoFactor(config, owner)
    const attacker = new Jar()
    const first = await signIn(config, undefined, { jar: attacker })
    expect(first.response.headers.get("location")).toMatch(/\/auth\/two-factor$/)
    clock.nextStep()
    return { owner, attacker, secret, clock }
  }

  test("revokeUserSessions ends a sign-in still waiting for its code elsewhere", async () => {
    const { attacker, secret } = await ownerAndAttacker()
    expect(await revokeUserSessions(config, ADA.id!)).toBe(1) // the owner's session; the wait is not one

    const finished = await submitCode(config, attacker, codeFor(secret))
    expect(setsSession(finished)).toBe(false)
    expect(finished.headers.get("location")).toMatch(/\/auth\/signin\?error=/)
  })

  test("signing out everywhere ends it too", async () => {
    const { owner, attacker, secret } = await ownerAndAttacker()
    const out = await postForm(config, owner, "/auth/signout", { scope: "all" })
    expect(out.status).toBe(302)

    const finished = await submitCode(config, attacker, codeFor(secret))
    expect(setsSession(finished)).toBe(false)
  })

  test("signing out the other sessions ends it, and keeps the owner's", async () => {
    const { owner, attacker, secret } = await ownerAndAttacker()
    await postForm(config, owner, "/auth/signout", { scope: "others" })

    expect(setsSession(await submitCode(config, attacker, codeFor(secret)))).toBe(false)
    expect(await listSessions(config, ADA.id!)).toHaveLength(1)
  })

  test("the wait is no session: not listed, not announced when it ends", async () => {
    const { owner, secret } = await ownerAndAttacker()
    const listed = await listSessions(config, ADA.id!)
    expect(listed).toHaveLength(1)
    expect(listed[0]!.provider).toBe("credentials")

    await postForm(config, owner, "/auth/signout", { scope: "others" })
    expect(revoked).toEqual([])
    // An untouched wait still finishes: the step works as before.
    const other = new Jar()
    await signIn(config, undefined, { jar: other })
    const finished = await submitCode(config, other, codeFor(secret))
    expect(setsSession(finished)).toBe(true)
    expect(await listSessions(config, ADA.id!)).toHaveLength(2)
  })

  test("signing out in the waiting browser ends its record", async () => {
    const { attacker } = await ownerAndAttacker()
    const waiting = async () =>
      (await adapter.listSessionRecords!(ADA.id!)).filter((r) =>
        r.provider?.startsWith("two-factor"),
      )
    expect(await waiting()).toHaveLength(1)
    await postForm(config, attacker, "/auth/signout")
    expect(await waiting()).toHaveLength(0)
  })
})
