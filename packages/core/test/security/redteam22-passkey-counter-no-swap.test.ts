/**
 * Red team 22: a cloned passkey racing the original on an adapter WITHOUT
 * `swapAuthenticatorCounter` (every Auth.js adapter: Prisma, Drizzle, ...).
 *
 * Round 9 closed the race with the compare-and-set, for adapters that have it.
 * Without it, two sign-ins verified against the same stored counter `c` both
 * got in whenever they presented the same count (or the lower one was stored
 * first): `updateAuthenticatorCounter` cannot tell that the counter moved.
 * Fixed: before storing the count, the step from `c` is claimed as a
 * verification token (identifier `webauthn-counter`, token = SHA-256 of
 * credential id and `c`), which every adapter refuses twice (the conformance
 * suite requires it): of two sign-ins from one stored counter exactly one gets
 * in, on any adapter. Memory and SQLite (with its swap removed, as an Auth.js
 * adapter is).
 *
 * The race is made deterministic by holding each `getAuthenticator` until both
 * sign-ins have read the stored counter: both verify against the same `c`.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest"
import type { Adapter } from "@tessera/core/adapters"
import { SoftAuthenticator } from "@tessera/testing/webauthn-authenticator"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"
import { memoryBackend, sqliteBackend, type Backend } from "../harness/backends.js"

const HOME = "http://localhost:3000"
const REFUSED = "http://localhost:3000/auth/signin?error=Callback"

/** While armed, lets no `getAuthenticator` answer until two have asked. */
class ReadBarrier {
  private waiting: (() => void)[] = []
  armed = false

  release(): void {
    this.armed = false
    for (const go of this.waiting.splice(0)) go()
  }

  /** The adapter as Auth.js's are (no swap), its reads going through the barrier. */
  wrap(adapter: Adapter): Adapter {
    const { swapAuthenticatorCounter: _swap, ...rest } = adapter
    const read = adapter.getAuthenticator!
    return {
      ...rest,
      getAuthenticator: async (id) => {
        const found = await read.call(adapter, id)
        if (this.armed) {
          const held = new Promise<void>((go) => this.waiting.push(go))
          if (this.waiting.length >= 2) this.release()
          await held
        }
        return found
      },
    }
  }
}

async function victimAndClone(backend: Backend) {
  const barrier = new ReadBarrier()
  const adapter = barrier.wrap(backend.adapter)
  // Round 9's compare-and-set is not there: this is the path of Auth.js adapters.
  expect(adapter.swapAuthenticatorCounter).toBeUndefined()
  const { config, errors } = passkeyConfig({ adapter })
  const victim = new PasskeyBrowser(config)
  expect((await victim.registerNew("victim@example.com")).status).toBe(302)
  await victim.signOut()
  expect((await victim.signInWithPasskey()).headers.get("location")).toBe(HOME)
  await victim.signOut()
  const [credential] = victim.authenticator.credentials.values()
  const storedCounter = async () =>
    (await backend.adapter.getAuthenticator!(credential!.id))!.counter
  expect(await storedCounter()).toBe(1)
  const clone = new PasskeyBrowser(config, undefined, new SoftAuthenticator())
  clone.authenticator.credentials.set(credential!.id, { ...credential! })
  return { barrier, errors, victim, clone, storedCounter }
}

async function race(
  backend: Backend,
  setup: Awaited<ReturnType<typeof victimAndClone>>,
  counts: { victim: number; clone: number },
) {
  const { barrier, victim, clone } = setup
  const original = await victim.options({ action: "authenticate" })
  const copied = await clone.options({ action: "authenticate" })
  const answers = [
    victim.authenticator.authenticate(original.body.options, {
      origin: victim.origin,
      counter: counts.victim,
    }),
    clone.authenticator.authenticate(copied.body.options, {
      origin: clone.origin,
      counter: counts.clone,
    }),
  ]
  const tokens = [await victim.csrfToken(), await clone.csrfToken()]
  const sessionsBefore = (await backend.sessions()).length
  barrier.armed = true
  const responses = await Promise.all(
    [victim, clone].map((browser, i) =>
      browser
        .callback("authenticate", answers[i], { csrfToken: tokens[i]! })
        .finally(() => barrier.release()),
    ),
  )
  return {
    locations: responses.map((r) => r.headers.get("location")),
    sessions: [await victim.session(), await clone.session()].filter(Boolean).length,
    newSessions: (await backend.sessions()).length - sessionsBefore,
  }
}

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", () => sqliteBackend()],
] as [string, () => Promise<Backend>][])(
  "red team 22: a cloned passkey racing the original, adapter without swapAuthenticatorCounter (%s)",
  (_, open) => {
    let backend: Backend
    beforeEach(async () => {
      backend = await open()
    })
    afterEach(async () => {
      await backend?.close()
    })

    for (const counts of [
      { victim: 5, clone: 5 },
      { victim: 9, clone: 4 },
    ]) {
      test(`counts ${counts.victim} and ${counts.clone} at once: exactly one signs in`, async () => {
        const setup = await victimAndClone(backend)
        const outcome = await race(backend, setup, counts)
        expect([...outcome.locations].sort()).toEqual([HOME, REFUSED])
        expect(outcome.sessions).toBe(1)
        expect(outcome.newSessions).toBe(1)
        expect(setup.errors.at(-1)?.message).toMatch(/cloned authenticator/)
        const winner = outcome.locations[0] === HOME ? counts.victim : counts.clone
        expect(await setup.storedCounter()).toBe(winner)
        // The credential keeps working: the next sign-in, from the stored count, gets in.
        await setup.victim.signOut()
        const next = await setup.victim.options({ action: "authenticate" })
        const answer = setup.victim.authenticator.authenticate(next.body.options, {
          origin: setup.victim.origin,
          counter: 20,
        })
        expect((await setup.victim.callback("authenticate", answer)).headers.get("location")).toBe(
          HOME,
        )
        expect(await setup.storedCounter()).toBe(20)
      })
    }
  },
)

test("a sign-in whose count could not be stored takes its claim back: the passkey is not refused as a clone", async () => {
  const backend = memoryBackend()
  const { swapAuthenticatorCounter: _swap, ...adapter } = backend.adapter
  let failNext = true
  adapter.updateAuthenticatorCounter = async (id, counter) => {
    if (failNext) {
      failNext = false
      throw new Error("database unavailable")
    }
    return backend.adapter.updateAuthenticatorCounter!(id, counter)
  }
  failNext = false
  const { config, errors } = passkeyConfig({ adapter })
  const browser = new PasskeyBrowser(config)
  expect((await browser.registerNew("ada@example.com")).status).toBe(302)
  await browser.signOut()
  failNext = true
  expect((await browser.signInWithPasskey()).headers.get("location")).not.toBe(HOME)
  expect(errors.at(-1)?.message).toMatch(/updateAuthenticatorCounter failed/)
  // Stored counter still 0; the next answer (count 2) is verified from 0 again and gets in.
  expect((await browser.signInWithPasskey()).headers.get("location")).toBe(HOME)
})
