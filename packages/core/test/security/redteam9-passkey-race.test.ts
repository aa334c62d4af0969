/**
 * Red team, round 9: a cloned passkey racing the original, driven through
 * `Auth()` on the memory adapter, SQLite and PostgreSQL. The attacker holds a
 * copy of the victim's credential (key and counter) and signs in at the moment
 * the victim does: both answers are ahead of the stored counter `c`, and both
 * sign-ins read `c` before either stores its count.
 *
 * Round 7 made the stored counter never go back and refused the answer behind
 * a count stored meanwhile. That left two races open, each with BOTH signed in:
 * - the clone and the original presenting the same count;
 * - the clone's lower (but ahead of `c`) count stored first, the original's
 *   higher one second.
 * Fixed: the count is stored with a compare-and-set against `c`
 * (`swapAuthenticatorCounter`), so of two sign-ins verified against one stored
 * counter exactly one gets in; the other is refused and writes nothing (no
 * session, no used-challenge record).
 *
 * The race is made deterministic by an adapter wrapper that holds each counter
 * write until both sign-ins have reached theirs (each has read the stored
 * counter and verified against it), then lets them through one after the
 * other, in the order the test asks for.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest"
import type { Adapter } from "@tessera/core/adapters"
import { SoftAuthenticator } from "@tessera/testing/webauthn-authenticator"
import { PasskeyBrowser, passkeyConfig } from "../flows/webauthn/passkey-browser.js"
import { memoryBackend, PostgresFixture, sqliteBackend, type Backend } from "../harness/backends.js"

const HOME = "http://localhost:3000"
const REFUSED = "http://localhost:3000/auth/signin?error=Callback"

/**
 * While armed, holds counter writes until two are waiting, then runs them one
 * at a time: first the one whose new counter is `first` (when given), else in
 * the order they came. `settle()` lets a lone waiting write go (its rival never
 * wrote), so a test fails instead of hanging.
 */
class CounterRace {
  private waiting: { counter: number; go: () => void; finished: Promise<void> }[] = []
  private armed = false
  private first: number | undefined

  arm(first?: number): void {
    this.armed = true
    this.first = first
  }

  settle(): void {
    this.armed = false
    for (const entry of this.waiting.splice(0)) entry.go()
  }

  async hold<T>(counter: number, write: () => Promise<T>): Promise<T> {
    if (!this.armed) return write()
    let go!: () => void
    let finish!: () => void
    const ready = new Promise<void>((resolve) => (go = resolve))
    const finished = new Promise<void>((resolve) => (finish = resolve))
    this.waiting.push({ counter, go, finished })
    if (this.waiting.length === 2) {
      this.armed = false
      const [a, b] = this.waiting
        .splice(0)
        .sort((x, y) => Number(y.counter === this.first) - Number(x.counter === this.first))
      // The second write starts only once the first has finished.
      a!.go()
      void a!.finished.then(() => b!.go())
    }
    await ready
    try {
      return await write()
    } finally {
      finish()
    }
  }

  /** The adapter, with its counter writes going through `hold`. */
  wrap(adapter: Adapter): Adapter {
    const wrapped: Adapter = { ...adapter }
    const update = adapter.updateAuthenticatorCounter
    if (update)
      wrapped.updateAuthenticatorCounter = (id, newCounter) =>
        this.hold(newCounter, async () => update.call(adapter, id, newCounter))
    const swap = adapter.swapAuthenticatorCounter
    if (swap)
      wrapped.swapAuthenticatorCounter = (id, expected, newCounter) =>
        this.hold(newCounter, async () => swap.call(adapter, id, expected, newCounter))
    return wrapped
  }
}

const postgres = new PostgresFixture()
beforeAll(async () => {
  await postgres.start()
})
afterAll(async () => {
  await postgres.stop()
})

const backends: [string, () => Promise<Backend>][] = [
  ["memory", async () => memoryBackend()],
  ["sqlite", () => sqliteBackend()],
  ["postgres", () => postgres.backend()],
]

/**
 * The victim, registered and signed in twice (stored counter 2), signed out;
 * the attacker's browser with a copy of the victim's credential.
 */
async function victimAndClone(backend: Backend) {
  const race = new CounterRace()
  const { config, errors } = passkeyConfig({ adapter: race.wrap(backend.adapter) })
  const victim = new PasskeyBrowser(config)
  expect((await victim.registerNew("victim@example.com")).status).toBe(302)
  await victim.signOut()
  for (let i = 0; i < 2; i++) {
    expect((await victim.signInWithPasskey()).headers.get("location")).toBe(HOME)
    await victim.signOut()
  }
  const [credential] = victim.authenticator.credentials.values()
  const storedCounter = async () =>
    (await backend.adapter.getAuthenticator!(credential!.id))!.counter
  expect(await storedCounter()).toBe(2)
  const clone = new PasskeyBrowser(config, undefined, new SoftAuthenticator())
  clone.authenticator.credentials.set(credential!.id, { ...credential! })
  return { race, errors, victim, clone, storedCounter }
}

/** Both answer their own challenge with the given counts, sent at once; the outcomes. */
async function raceSignIns(
  backend: Backend,
  setup: Awaited<ReturnType<typeof victimAndClone>>,
  counts: { victim: number; clone: number },
  first?: number,
) {
  const { race, victim, clone } = setup
  const original = await victim.options({ action: "authenticate" })
  const copied = await clone.options({ action: "authenticate" })
  const victimAnswer = victim.authenticator.authenticate(original.body.options, {
    origin: victim.origin,
    counter: counts.victim,
  })
  const cloneAnswer = clone.authenticator.authenticate(copied.body.options, {
    origin: clone.origin,
    counter: counts.clone,
  })
  const [victimToken, cloneToken] = [await victim.csrfToken(), await clone.csrfToken()]
  const sessionsBefore = (await backend.sessions()).length
  const tokensBefore = (await backend.tokens()).length
  race.arm(first)
  const settled = <T>(promise: Promise<T>) =>
    promise.finally(() => {
      race.settle()
    })
  const [victimResponse, cloneResponse] = await Promise.all([
    settled(victim.callback("authenticate", victimAnswer, { csrfToken: victimToken })),
    settled(clone.callback("authenticate", cloneAnswer, { csrfToken: cloneToken })),
  ])
  return {
    victim: victimResponse.headers.get("location"),
    clone: cloneResponse.headers.get("location"),
    victimSession: await victim.session(),
    cloneSession: await clone.session(),
    newSessions: (await backend.sessions()).length - sessionsBefore,
    newTokens: (await backend.tokens()).length - tokensBefore,
  }
}

/**
 * Exactly one of the two signed in, and the other wrote nothing: one new session, one
 * used-challenge record, the winner's count stored, the refusal logged as a clone.
 */
async function expectExactlyOne(
  setup: Awaited<ReturnType<typeof victimAndClone>>,
  outcome: Awaited<ReturnType<typeof raceSignIns>>,
  storedCounter: number,
) {
  expect([outcome.victim, outcome.clone].sort()).toEqual([HOME, REFUSED])
  expect([outcome.victimSession, outcome.cloneSession].filter(Boolean)).toHaveLength(1)
  expect(outcome.newSessions).toBe(1)
  expect(outcome.newTokens).toBe(1)
  expect(await setup.storedCounter()).toBe(storedCounter)
  expect(setup.errors.at(-1)).toMatchObject({ type: "WebAuthnVerificationError" })
  expect(setup.errors.at(-1)?.message).toMatch(/cloned authenticator/)
}

describe.each(backends)("red team 9: a cloned passkey racing the original (%s)", (_, open) => {
  let backend: Backend
  beforeEach(async () => {
    backend = await open()
  })
  afterEach(async () => {
    await backend?.close()
  })

  test("the clone and the original presenting the same count at once: exactly one signs in", async () => {
    const setup = await victimAndClone(backend)
    const outcome = await raceSignIns(backend, setup, { victim: 5, clone: 5 })
    await expectExactlyOne(setup, outcome, 5)
  })

  test("the clone's lower count stored first, the original's higher one second: exactly one signs in", async () => {
    const setup = await victimAndClone(backend)
    const outcome = await raceSignIns(backend, setup, { victim: 9, clone: 4 }, 4)
    // The first to store its count wins: Tessera cannot tell the copy from the original.
    await expectExactlyOne(setup, outcome, 4)
    expect(outcome.clone).toBe(HOME)
  })

  test("the original's higher count stored first, the clone's lower one second: only the original", async () => {
    const setup = await victimAndClone(backend)
    const outcome = await raceSignIns(backend, setup, { victim: 9, clone: 4 }, 9)
    await expectExactlyOne(setup, outcome, 9)
    expect(outcome.victim).toBe(HOME)
  })
})
