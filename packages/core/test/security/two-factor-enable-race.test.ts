/**
 * Confirming a second factor races with setting up another: between the check
 * of the code (against the key set up in this browser) and the write that
 * enables "the unconfirmed factor", another session of the same user (or
 * someone holding a stolen session) can set up a new key. Enabling must
 * confirm the key whose code was checked, or nothing.
 */
import { afterEach, expect, test, vi } from "vitest"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryAdapter } from "@tessera/testing"
import { makeConfig, signIn } from "../harness/index.js"
import { codeFor, fakeClock, getJson, postForm, type SetUpFactor } from "../two-factor/helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

/** Two signed-in sessions of one user; the second sets up a key right after the first's code check. */
async function race(tweak: (adapter: ReturnType<typeof MemoryAdapter>) => void = () => {}) {
  fakeClock()
  const adapter = MemoryAdapter()
  tweak(adapter)
  let interleave: (() => Promise<void>) | undefined
  const useTwoFactorStep = adapter.useTwoFactorStep!.bind(adapter)
  // The code check records its TOTP step last: the other session's setup runs right after it.
  adapter.useTwoFactorStep = async (userId, step) => {
    const used = await useTwoFactorStep(userId, step)
    const other = interleave
    interleave = undefined
    await other?.()
    return used
  }
  const { config } = makeConfig({
    adapter,
    session: { strategy: "jwt" },
    providers: [
      Credentials({
        credentials: { username: {} },
        authorize: ({ username }) => (username === "ada" ? { id: "ada", name: "Ada" } : null),
      }),
    ],
  })
  const mine = (await signIn(config, { username: "ada" })).jar
  const theirs = (await signIn(config, { username: "ada" })).jar
  const setUp = async (jar: typeof mine) =>
    (await (await postForm(config, jar, "/auth/two-factor/setup")).json()) as SetUpFactor

  const myFactor = await setUp(mine)
  let theirFactor: SetUpFactor | undefined
  interleave = async () => {
    theirFactor = await setUp(theirs)
  }
  const enable = await postForm(config, mine, "/auth/two-factor/enable", {
    code: codeFor(myFactor.secret),
  })
  expect(theirFactor?.secret).toBeDefined()
  expect(theirFactor!.secret).not.toBe(myFactor.secret)
  return { config, mine, theirs, enable, theirFactor: theirFactor! }
}

test("a key set up by another session between the code check and the write is not the one enabled", async () => {
  const { config, mine, theirs, enable, theirFactor } = await race()

  // Their key was not confirmed with my code: I am told so, and nothing is enabled.
  expect(enable.status).toBe(400)
  expect((await getJson(config, mine, "/auth/two-factor/status")).body).toEqual({
    enabled: false,
    pending: true,
  })
  // Their key still needs its own code to be enabled.
  const confirmed = await postForm(config, theirs, "/auth/two-factor/enable", {
    code: codeFor(theirFactor.secret),
  })
  expect(confirmed.status).toBe(200)
})

test("with an adapter that ignores the secret, the key enabled unconfirmed is removed again", async () => {
  const { config, mine, enable } = await race((adapter) => {
    const enableTwoFactor = adapter.enableTwoFactor!.bind(adapter)
    adapter.enableTwoFactor = (userId) => enableTwoFactor(userId)
  })
  expect(enable.status).toBe(400)
  expect((await getJson(config, mine, "/auth/two-factor/status")).body).toEqual({
    enabled: false,
    pending: false,
  })
})
