/**
 * `rateLimit: { clientAddress: true }` in SvelteKit: the per-IP limits count
 * under `event.getClientAddress()` (the adapter's answer: adapter-node's socket
 * peer, or the entry its `ADDRESS_HEADER`/`XFF_DEPTH` pick), through `handle`
 * and through the `signIn` form action alike. A client's own `X-Forwarded-For`
 * buys it nothing; an adapter that cannot tell (it throws) means no per-IP
 * count, not a failed sign-in; without the option the address is never asked for.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { RateLimited, SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { Browser, createEvent, formRequest, runHandle, type TestEvent } from "../helpers/kit.js"

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => setKitRuntime())

const SESSION = "tessera.session-token"
const ATTACKER = "203.0.113.66"
const VICTIM = "192.0.2.10"

function setup(rateLimit: Record<string, unknown>) {
  const warnings: string[] = []
  const config = testConfig({
    rateLimit: {
      store: new MemoryRateLimitStore(),
      // Only the per-IP limit: a lockout here is the IP limit's doing.
      credentials: false,
      credentialsIp: { max: 3, window: 900 },
      ...rateLimit,
    },
  })
  config.logger = { ...config.logger, warn: (code) => void warnings.push(code) }
  const asked = { count: 0 }
  /** An event whose adapter reports `address` (or throws, for `null`). */
  const from = (event: TestEvent, address: string | null): TestEvent => {
    event.getClientAddress = () => {
      asked.count++
      if (address === null) throw new Error("Address header is absent from the request")
      return address
    }
    return event
  }
  return { ...SvelteKitAuth(config), from, asked, warnings }
}

type Setup = ReturnType<typeof setup>

/** A credentials sign-in through `handle` from a fresh browser, with a forged X-Forwarded-For. */
async function attempt(
  { handle, from }: Setup,
  address: string | null,
  username: string,
  password: string,
) {
  const browser = new Browser()
  const forged = { "x-forwarded-for": `10.${Math.floor(Math.random() * 255)}.0.1` }
  const csrf = await runHandle(
    handle,
    from(createEvent(browser.request(`${ORIGIN}/auth/csrf`)), address),
  )
  browser.receiveResponse(csrf.response)
  const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }
  const fields = { username, password, csrfToken }
  const post = formRequest(`${ORIGIN}/auth/callback/credentials`, fields, forged)
  const event = from(
    createEvent(
      browser.request(post.url, {
        method: "POST",
        headers: post.headers,
        body: new URLSearchParams(fields),
      }),
    ),
    address,
  )
  const { response } = await runHandle(handle, event)
  browser.receiveResponse(response)
  return { location: response.headers.get("location"), signedIn: browser.cookies.has(SESSION) }
}

/** The `signIn` form action with credentials; what it threw, or "signed in". */
async function formSignIn({ signIn, from }: Setup, address: string, password: string) {
  const fields = { providerId: "credentials", username: "ada", password }
  const event = from(
    createEvent(formRequest(`${ORIGIN}/signin`, fields, { "x-forwarded-for": VICTIM })),
    address,
  )
  try {
    await signIn(event)
  } catch (thrown) {
    if (thrown instanceof RateLimited) return "rate limited"
    if (event.cookies.latest(SESSION)?.value) return "signed in"
    return thrown instanceof Error ? thrown.constructor.name : "redirect"
  }
  return "signed in"
}

const rateLimitedPage = `${ORIGIN}/auth/signin?error=RateLimited`

describe("SvelteKit with rateLimit.clientAddress", () => {
  it("counts per event.getClientAddress(): one client's lockout is not another's, forged headers change nothing", async () => {
    const kit = setup({ clientAddress: true })
    for (let i = 0; i < 3; i++) await attempt(kit, ATTACKER, `user${i}`, "wrong")
    const locked = await attempt(kit, ATTACKER, "ada", "lovelace")
    expect(locked.location).toBe(rateLimitedPage)
    expect(locked.signedIn).toBe(false)
    expect(await formSignIn(kit, ATTACKER, "lovelace")).toBe("rate limited")

    expect((await attempt(kit, VICTIM, "ada", "lovelace")).signedIn).toBe(true)
    expect(await formSignIn(kit, VICTIM, "lovelace")).toBe("signed in")
  })

  it("the form action counts toward the same limit as the route", async () => {
    const kit = setup({ clientAddress: true })
    for (let i = 0; i < 3; i++)
      expect(await formSignIn(kit, ATTACKER, `wrong ${i}`)).toBe("CredentialsSignin")
    expect((await attempt(kit, ATTACKER, "ada", "lovelace")).location).toBe(rateLimitedPage)
  })

  it("an adapter that cannot tell the address: no per-IP count, the sign-in works, a warning once", async () => {
    const kit = setup({ clientAddress: true })
    for (let i = 0; i < 5; i++) await attempt(kit, null, `user${i}`, "wrong")
    expect((await attempt(kit, null, "ada", "lovelace")).signedIn).toBe(true)
    const missing = kit.warnings.filter((code) => code === "rate-limit-client-address-missing")
    expect(missing).toEqual(["rate-limit-client-address-missing"])
  })

  it("without the option the address is never asked for, and keys nothing", async () => {
    const kit = setup({})
    for (let i = 0; i < 5; i++) await attempt(kit, ATTACKER, `user${i}`, "wrong")
    expect((await attempt(kit, ATTACKER, "ada", "lovelace")).signedIn).toBe(true)
    expect(kit.asked.count).toBe(0)
  })
})
