/**
 * Red team 11: a 6-digit TOTP code is only as strong as the limit on guessing
 * it (3 of its 10^6 values pass at any moment). With the default limits the
 * right code is refused after 5 wrong ones. Issue 13 makes `rateLimit: false`
 * turn every limit off, and a rule may be `false` on its own: the app's call,
 * kept as specified, but Tessera says so at start
 * (`rate-limit-codes-unguarded`) while second factors are on.
 */
import { afterEach, beforeEach, expect, test, vi } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { ADA, get, makeConfig, ORIGIN, signIn } from "../harness/index.js"
import { sqliteBackend, type Backend } from "../harness/backends.js"
import { codeFor, enableTwoFactor, fakeClock, session, submitCode } from "../two-factor/helpers.js"

let backend: Backend
beforeEach(async () => {
  fakeClock()
  backend = await sqliteBackend()
  await backend.adapter.createUser!({ ...ADA, id: ADA.id!, email: ADA.email!, emailVerified: null })
})
afterEach(async () => {
  vi.useRealTimers()
  await backend.close()
})

async function guessThenRight(config: AuthConfig) {
  const owner = await signIn(config)
  const factor = await enableTwoFactor(config, owner.jar)
  vi.setSystemTime(Date.now() + 30_000)
  const { response, jar } = await signIn(config)
  expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  const locations: string[] = []
  for (let i = 1; i <= 8; i++) {
    const guess = codeFor(factor.secret, Date.now(), 10 + i)
    locations.push((await submitCode(config, jar, guess)).headers.get("location") ?? "")
  }
  const right = await submitCode(config, jar, codeFor(factor.secret))
  return {
    locations,
    right: right.headers.get("location") ?? "",
    session: await session(config, jar),
  }
}

test("default limits: the right code is refused after 5 wrong ones, and nothing is warned", async () => {
  const { config, log } = makeConfig({ adapter: backend.adapter })
  const { locations, right, session } = await guessThenRight(config)
  expect(locations.slice(0, 5).every((l) => l.includes("error=TwoFactor"))).toBe(true)
  expect(locations.slice(5).every((l) => l.includes("error=RateLimited"))).toBe(true)
  expect(right).toContain("error=RateLimited")
  expect(session).toBeNull()
  expect(log.warnings).not.toContain("rate-limit-codes-unguarded")
})

for (const rateLimit of [false, { twoFactor: false }] as const) {
  test(`rateLimit: ${JSON.stringify(rateLimit)} turns the second-factor limit off, with a warning at start`, async () => {
    const { config, log } = makeConfig({ adapter: backend.adapter, rateLimit })
    await Auth(get("/auth/session"), config as AuthConfig)
    expect(log.warnings).toContain("rate-limit-codes-unguarded")
    const { locations, right, session } = await guessThenRight(config)
    expect(locations.every((l) => l.includes("error=TwoFactor"))).toBe(true)
    expect(right).not.toContain("error=")
    expect(session).not.toBeNull()
    expect(log.errors).toEqual([])
  })
}

test("second factors off: rateLimit: false warns nothing about codes", async () => {
  const { config, log } = makeConfig({
    adapter: backend.adapter,
    rateLimit: false,
    twoFactor: false,
  })
  await Auth(get("/auth/session"), config as AuthConfig)
  expect(log.warnings).not.toContain("rate-limit-codes-unguarded")
})
