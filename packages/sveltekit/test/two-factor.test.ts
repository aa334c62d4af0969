/**
 * The second factor through SvelteKit: `handle` serves the two-factor routes
 * (setup, enable), the `signIn` form action stops at the two-factor step for
 * a user with a second factor, and the same action with `providerId=two-factor`
 * and `code` finishes the sign-in (or throws `InvalidTwoFactorCode`).
 */
import { isRedirect, type Redirect } from "@sveltejs/kit"
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { generateHOTP } from "@oslojs/otp"
import { afterEach, beforeEach, expect, test, vi } from "vitest"
import { MemoryAdapter } from "@tessera/testing"
import { InvalidTwoFactorCode, SvelteKitAuth } from "../src/index.js"
import { setKitRuntime } from "../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "./helpers/config.js"
import { Browser, createEvent, formRequest, runHandle, type TestEvent } from "./helpers/kit.js"

beforeEach(() => {
  useKitRuntime({ NODE_ENV: "production" })
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2030-06-01T12:00:05Z") })
})
afterEach(() => {
  setKitRuntime()
  vi.useRealTimers()
})

const code = (secret: string) =>
  generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000)), 6)

async function action(run: (event: TestEvent) => unknown, event: TestEvent): Promise<Redirect> {
  try {
    await run(event)
  } catch (thrown) {
    if (isRedirect(thrown)) return thrown
    throw thrown
  }
  throw new Error("the action did not redirect")
}

/** A browser that talks to `handle` (the auth routes) with its cookies. */
async function viaHandle(
  handle: Parameters<typeof runHandle>[0],
  browser: Browser,
  path: string,
  fields?: Record<string, string>,
) {
  let csrfToken = ""
  if (fields) {
    const csrf = await runHandle(handle, createEvent(browser.request(`${ORIGIN}/auth/csrf`)))
    browser.receiveResponse(csrf.response)
    csrfToken = ((await csrf.response.json()) as { csrfToken: string }).csrfToken
  }
  const request = fields
    ? browser.request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams({ ...fields, csrfToken }),
      })
    : browser.request(`${ORIGIN}${path}`)
  const { response } = await runHandle(handle, createEvent(request))
  browser.receiveResponse(response)
  return response
}

test("signIn stops at the two-factor step; signIn('two-factor', { code }) finishes it", async () => {
  const config = testConfig({ adapter: MemoryAdapter(), session: { strategy: "jwt" } })
  const { handle, signIn } = SvelteKitAuth(config)
  const credentials = { providerId: "credentials", username: "ada", password: "lovelace" }

  // Signed in (no second factor yet), Ada sets one up and confirms it.
  const first = createEvent(formRequest(`${ORIGIN}/signin`, credentials))
  await action(signIn, first)
  const owner = new Browser()
  owner.receiveEvent(first)
  const setup = await viaHandle(handle, owner, "/auth/two-factor/setup", {})
  expect(setup.status).toBe(200)
  const { secret } = (await setup.json()) as { secret: string }
  const enabled = await viaHandle(handle, owner, "/auth/two-factor/enable", { code: code(secret) })
  expect(await enabled.json()).toEqual({ enabled: true })
  vi.setSystemTime(Date.now() + 30_000)

  // Next sign-in: the password is not enough.
  const browser = new Browser()
  const second = createEvent(
    formRequest(`${ORIGIN}/signin`, { ...credentials, redirectTo: "/account" }),
  )
  const step = await action(signIn, second)
  expect(step.status).toBe(303)
  expect(step.location).toBe(`${ORIGIN}/auth/two-factor`)
  expect(second.cookies.latest("tessera.session-token")).toBeUndefined()
  expect(second.cookies.latest("tessera.two-factor")?.value).toBeTruthy()
  browser.receiveEvent(second)

  // A wrong code is thrown to the app's action, which keeps its form on screen.
  const wrong = createEvent(
    browser.request(`${ORIGIN}/signin/two-factor`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ providerId: "two-factor", code: "000000" }),
    }),
  )
  await expect(Promise.resolve(signIn(wrong))).rejects.toBeInstanceOf(InvalidTwoFactorCode)

  const right = createEvent(
    browser.request(`${ORIGIN}/signin/two-factor`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({ providerId: "two-factor", code: code(secret) }),
    }),
  )
  const done = await action(signIn, right)
  expect(done.location).toBe(`${ORIGIN}/account`)
  expect(right.cookies.latest("tessera.session-token")?.value).toMatch(/^ey/)
  expect(right.cookies.latest("tessera.two-factor")?.options.maxAge).toBe(0)
})
