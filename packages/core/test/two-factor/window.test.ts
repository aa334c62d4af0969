/**
 * The TOTP window #13 names: "a window of +/- 1 step" (an authenticator app's
 * clock a little off still works), no wider, and each code usable once. Driven
 * through `Auth()`: a user with a confirmed factor signs in with a password,
 * then answers with codes an app would show at other times.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { memoryBackend, type Backend } from "../harness/backends.js"
import { credentialsProvider, makeConfig, ORIGIN, setsSession, signIn } from "../harness/index.js"
import { codeFor, enableTwoFactor, fakeClock, Jar, submitCode } from "./helpers.js"

const TWO_FACTOR_PAGE = `${ORIGIN}/auth/two-factor`

let backend: Backend
let config: AuthConfig
beforeEach(() => {
  backend = memoryBackend()
  ;({ config } = makeConfig({
    adapter: backend.adapter,
    session: { strategy: "jwt" },
    providers: [credentialsProvider()],
  }))
})
afterEach(async () => {
  vi.useRealTimers()
  await backend.close()
})

/** A second factor set up and confirmed, and a fresh sign-in waiting for its code. */
async function waitingForCode(clock: ReturnType<typeof fakeClock>) {
  const { jar: owner } = await signIn(config)
  const { secret } = await enableTwoFactor(config, owner)
  // Past the step the confirmation used: that code is spent.
  clock.nextStep(90)
  const jar = new Jar()
  const { response } = await signIn(config, undefined, { jar })
  expect(response.headers.get("location")).toBe(TWO_FACTOR_PAGE)
  return { secret, jar }
}

describe("the TOTP window", () => {
  test.each([
    ["the previous step", -1],
    ["the next step", 1],
  ])("a code of %s signs in", async (_name, offset) => {
    const clock = fakeClock()
    const { secret, jar } = await waitingForCode(clock)
    const done = await submitCode(config, jar, codeFor(secret, Date.now(), offset))
    expect(setsSession(done)).toBe(true)
  })

  test.each([
    ["two steps back", -2],
    ["two steps ahead", 2],
  ])("a code from %s does not", async (_name, offset) => {
    const clock = fakeClock()
    const { secret, jar } = await waitingForCode(clock)
    const refused = await submitCode(config, jar, codeFor(secret, Date.now(), offset))
    expect(setsSession(refused)).toBe(false)
    expect(refused.headers.get("location")).toBe(`${TWO_FACTOR_PAGE}?error=TwoFactor`)
  })

  test("a code accepted from the next step cannot be used again at that step, nor an earlier one after it", async () => {
    const clock = fakeClock()
    const { secret, jar } = await waitingForCode(clock)
    const ahead = codeFor(secret, Date.now(), 1)
    expect(setsSession(await submitCode(config, jar, ahead))).toBe(true)
    // Another sign-in, in the step whose code was just used, and with the current step's code.
    const again = new Jar()
    await signIn(config, undefined, { jar: again })
    expect(setsSession(await submitCode(config, again, ahead))).toBe(false)
    expect(setsSession(await submitCode(config, again, codeFor(secret)))).toBe(false)
    clock.nextStep(60)
    expect(setsSession(await submitCode(config, again, codeFor(secret)))).toBe(true)
  })
})
