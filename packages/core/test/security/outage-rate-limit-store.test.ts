/**
 * `Auth()` with an app's own rate-limit store that goes away: a store object
 * whose calls never settle (a store on a network service that accepts the
 * connection and never answers). Without a bound, every sign-in the limits
 * guard waits on it forever. Tessera bounds each store call (`storeTimeout`,
 * default 5000 ms) and treats a call
 * past it as a store that failed: limits fail closed, so the sign-in answers
 * `error=Configuration`, is logged once at error level without the
 * identifier, and nothing is sent or stored.
 *
 * Without the bound these tests run into their own timeout instead of hanging
 * the suite.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Nodemailer from "@tessera/core/providers/nodemailer"
import type { RateLimitStore } from "@tessera/core/rate-limit"
import { createRateLimiter, MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { MemoryAdapter, startMailSink, type MailSink } from "@tessera/testing"
import { credentialsProvider, get, makeConfig, ORIGIN, signIn } from "../harness/index.js"
import { loggedText, requestLink, uniqueAddress } from "../flows/email/fixtures.js"

/** A test that would hang fails here. */
const TEST_TIMEOUT_MS = 12_000
/** The small bound the configured tests use. */
const SMALL_BOUND_MS = 50

const REFUSED = `${ORIGIN}/auth/error?error=Configuration`

let sink: MailSink
beforeAll(async () => {
  sink = await startMailSink()
})
afterAll(async () => {
  await sink?.stop()
})

/**
 * A store whose calls never settle until `release` is called, which then
 * rejects every one of them (the service came back with an error): a late
 * rejection must go nowhere.
 */
function hungStore() {
  const pending: ((error: Error) => void)[] = []
  let calls = 0
  const never = <T>() =>
    new Promise<T>((_, reject) => {
      calls++
      pending.push(reject)
    })
  const store: RateLimitStore = {
    increment: () => never<number>(),
    get: () => never<number>(),
    delete: () => never<void>(),
  }
  return {
    store,
    get calls() {
      return calls
    },
    release() {
      for (const reject of pending.splice(0)) reject(new Error("the store came back, too late"))
    },
  }
}

/** A working store that takes `ms` to answer each call. */
function slowStore(ms: number): RateLimitStore {
  const memory = new MemoryRateLimitStore()
  const later = <T>(run: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => setTimeout(() => run().then(resolve, reject), ms))
  return {
    increment: (key, ttl) => later(() => memory.increment(key, ttl)),
    get: (key) => later(() => memory.get(key)),
    delete: (key) => later(() => memory.delete(key)),
  }
}

function setup(rateLimit: AuthConfig["rateLimit"]) {
  const adapter = MemoryAdapter()
  const { config, log } = makeConfig({
    adapter,
    session: { strategy: "jwt" },
    providers: [credentialsProvider(), Nodemailer({ server: sink.url, from: "app@example.com" })],
    rateLimit,
  })
  return { config, log, tokens: adapter.store.verificationTokens }
}

/** Refused because the store failed: the error page, logged once at error level, naming no one. */
function expectRefusedAndLogged(
  response: Response,
  log: ReturnType<typeof setup>["log"],
  identifier: string,
) {
  expect(response.status).toBe(302)
  expect(response.headers.get("location")).toBe(REFUSED)
  expect(log.errors).toHaveLength(1)
  expect(log.errors[0]!.name).toBe("TimeoutError")
  expect(log.errors[0]!.message).toMatch(/rate-limit store did not answer/)
  expect(loggedText(log.errors, log.debug)).not.toContain(identifier)
}

describe("a rate-limit store that never answers", () => {
  test(
    "credentials sign-in, default bound: refused with error=Configuration, logged once",
    async () => {
      const hung = hungStore()
      const { config, log } = setup({ store: hung.store })
      const { response } = await signIn(config, { username: "ada", password: "correct horse" })
      expect(hung.calls).toBeGreaterThan(0)
      expectRefusedAndLogged(response, log, "ada")
      // No session for a sign-in whose limits could not be checked.
      expect(response.headers.getSetCookie().join()).not.toMatch(/session-token=[^;]/)
      // The store answers at last: the limiter no longer listens, and nothing is unhandled.
      hung.release()
    },
    TEST_TIMEOUT_MS,
  )

  test(
    "credentials sign-in, storeTimeout 50 ms: the same answer",
    async () => {
      const hung = hungStore()
      const { config, log } = setup({ store: hung.store, storeTimeout: SMALL_BOUND_MS })
      const { response } = await signIn(config, { username: "ada", password: "wrong" })
      expect(hung.calls).toBeGreaterThan(0)
      expectRefusedAndLogged(response, log, "ada")
      hung.release()
    },
    TEST_TIMEOUT_MS,
  )

  test(
    "e-mail sign-in: refused, no mail sent and no token stored",
    async () => {
      const hung = hungStore()
      const s = setup({ store: hung.store, storeTimeout: SMALL_BOUND_MS })
      const address = uniqueAddress()
      const mailed = sink.messages.length
      const { response } = await requestLink(s.config, address)
      expect(hung.calls).toBeGreaterThan(0)
      expectRefusedAndLogged(response, s.log, address)
      expect(sink.messages.length).toBe(mailed)
      expect(s.tokens.size).toBe(0)
      hung.release()
    },
    TEST_TIMEOUT_MS,
  )
})

describe("a slow rate-limit store that answers within the bound", () => {
  test("sign-ins work, and the limit still counts", async () => {
    const { config, log } = setup({
      store: slowStore(20),
      storeTimeout: 2_000,
      credentials: { max: 2, window: 900 },
    })
    const { response } = await signIn(config, { username: "ada", password: "correct horse" })
    expect(response.headers.get("location")).toBe(ORIGIN)
    for (let i = 0; i < 2; i++) await signIn(config, { username: "ada", password: "wrong" })
    const { response: locked } = await signIn(config, { username: "ada", password: "wrong" })
    expect(locked.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=RateLimited`)
    expect(log.errors).toEqual([])
  })
})

test("storeTimeout must be a positive number of milliseconds", async () => {
  for (const storeTimeout of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "1s", 2 ** 31]) {
    const { config, log } = makeConfig({ rateLimit: { storeTimeout } as never })
    const response = await Auth(get("/auth/session"), config)
    expect(response.status).toBe(500)
    expect(log.errors[0]?.message).toMatch(/rateLimit\.storeTimeout/)
  }
})

test("createRateLimiter bounds its store's calls too (storeTimeout, validated)", async () => {
  const hung = hungStore()
  const limiter = createRateLimiter({
    secret: "a-secret",
    rules: { signin: { max: 5, window: 60 } },
    store: hung.store,
    storeTimeout: SMALL_BOUND_MS,
  })
  await expect(limiter.hit("signin", "ada@example.com")).rejects.toMatchObject({
    name: "TimeoutError",
  })
  hung.release()
  for (const storeTimeout of [0, 2 ** 31])
    expect(() =>
      createRateLimiter({ secret: "s", rules: { signin: { max: 1, window: 1 } }, storeTimeout }),
    ).toThrow(/storeTimeout/)
})

/**
 * A store that works until `fail()`, then rejects every call: the service went away between
 * the check before the sign-in and the bookkeeping after it.
 */
function failingLaterStore() {
  const memory = new MemoryRateLimitStore()
  let failing = false
  const call = <T>(run: () => Promise<T>) =>
    failing ? Promise.reject(new Error("rate-limit store connection lost")) : run()
  const store: RateLimitStore = {
    increment: (key, ttl) => call(() => memory.increment(key, ttl)),
    get: (key) => call(() => memory.get(key)),
    delete: (key) => call(() => memory.delete(key)),
    compareAndDelete: (expected) => call(() => memory.compareAndDelete(expected)),
  }
  return { store, fail: () => (failing = true) }
}

describe("a rate-limit store that fails after the sign-in succeeded", () => {
  // The session is made (and an e-mail link or code is used up) before the success is
  // recorded: refusing then would leave the user signed out with their link spent. The counts
  // it could not clear only stay as they were (the strict side), so it is logged, not refused.
  test("credentials: signed in, the fault logged once at error level", async () => {
    const failing = failingLaterStore()
    const { config, log } = makeConfig({
      session: { strategy: "jwt" },
      providers: [
        credentialsProvider({
          async authorize(credentials: Record<string, unknown>) {
            failing.fail()
            return credentials.password === "correct horse" ? { id: "ada", name: "Ada" } : null
          },
        }),
      ],
      rateLimit: { store: failing.store },
    })
    const { response } = await signIn(config, { username: "ada", password: "correct horse" })
    expect(response.headers.get("location")).toBe(ORIGIN)
    expect(response.headers.getSetCookie().join()).toMatch(/session-token=[^;]/)
    expect(log.errors.map((e) => e.message)).toEqual(["rate-limit store connection lost"])
  })

  test("a wrong password is still refused when the failure cannot be counted", async () => {
    const failing = failingLaterStore()
    const { config } = makeConfig({
      session: { strategy: "jwt" },
      providers: [
        credentialsProvider({
          async authorize() {
            failing.fail()
            return null
          },
        }),
      ],
      rateLimit: { store: failing.store },
    })
    const { response } = await signIn(config, { username: "ada", password: "wrong" })
    expect(response.headers.get("location")).not.toBe(ORIGIN)
    expect(response.headers.getSetCookie().join()).not.toMatch(/session-token=[^;]/)
  })
})
