/**
 * Red team 11: a 6-digit TOTP code is only as strong as the limit on guessing
 * it (3 of its 10^6 values pass at any moment). E-mailed codes keep their 5
 * attempts whatever `rateLimit` says; second-factor codes had only the
 * `twoFactor` rate limit, so `rateLimit: false` (documented as "turns every
 * limit off") or `rateLimit: { twoFactor: false }` let an attacker holding the
 * password guess the code without end. Failed before the fix: the right code
 * after 40 wrong ones signed in. Now the `twoFactor` limit stays on (on the
 * process's memory store when `rateLimit` is `false`), and turning it off
 * alone is a configuration error.
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

test("rateLimit: false still stops guessing at the second factor: the right code is refused after 5 wrong ones", async () => {
  const { config } = makeConfig({ adapter: backend.adapter, rateLimit: false })
  const owner = await signIn(config)
  const factor = await enableTwoFactor(config, owner.jar)
  vi.setSystemTime(Date.now() + 30_000)
  const { response, jar } = await signIn(config)
  expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  const locations: string[] = []
  for (let i = 1; i <= 40; i++) {
    const guess = codeFor(factor.secret, Date.now(), 10 + i)
    locations.push((await submitCode(config, jar, guess)).headers.get("location") ?? "")
  }
  expect(locations.filter((l) => l.includes("error=RateLimited")).length).toBeGreaterThanOrEqual(35)
  const right = await submitCode(config, jar, codeFor(factor.secret))
  expect(right.headers.get("location")).toContain("error=RateLimited")
  expect(await session(config, jar)).toBeNull()
})

test("rateLimit: { twoFactor: false } is a configuration error, not an unlimited second factor", async () => {
  const { config, log } = makeConfig({
    adapter: backend.adapter,
    rateLimit: { twoFactor: false },
  })
  const response = await Auth(get("/auth/session"), config as AuthConfig)
  expect(response.status).toBe(500)
  expect(log.errors[0]?.message).toMatch(/twoFactor/)
})
