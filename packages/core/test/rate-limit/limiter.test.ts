/**
 * The limiter's logic over a real memory store, with the clock moved by hand:
 * keys that hide the subject, check/hit/reset, the sliding-window estimate and
 * the Retry-After it derives.
 */
import { createHmac } from "node:crypto"
import { describe, expect, test } from "vitest"
import {
  MemoryRateLimitStore,
  createRateLimiter,
  type RateLimitStore,
} from "@tessera/core/rate-limit"

const SECRET = "rate-limit-test-secret-0123456789abcdef"
const WINDOW = 60
/** The start of a 60-second window. */
const T0 = Math.floor(1_700_000_000_000 / 60_000) * 60_000

function setup(max = 10, window = WINDOW) {
  let time = T0
  const store = new MemoryRateLimitStore({ now: () => time })
  const keys: string[] = []
  // The real store, with every key it is asked for written down.
  const recording: RateLimitStore = {
    increment: (key, ttl) => (keys.push(key), store.increment(key, ttl)),
    get: (key) => (keys.push(key), store.get(key)),
    delete: (key) => (keys.push(key), store.delete(key)),
  }
  const limiter = createRateLimiter({
    secret: SECRET,
    store: recording,
    now: () => time,
    rules: { signin: { max, window }, mail: { max: 2, window: 3600 } },
  })
  const at = (seconds: number) => void (time = T0 + seconds * 1000)
  const hits = async (n: number, subject = "ada@example.com") => {
    for (let i = 0; i < n; i++) await limiter.hit("signin", subject)
  }
  return { limiter, keys, store, at, hits }
}

/** A limiter (max 10) on `store` whose clearing steps (`delete`, `compareAndDelete`) run `race` first. */
function racingLimiter(store: MemoryRateLimitStore, race: () => Promise<unknown>) {
  return createRateLimiter({
    secret: SECRET,
    now: () => T0,
    rules: { signin: { max: 10, window: WINDOW } },
    store: {
      increment: (key, ttl) => store.increment(key, ttl),
      get: (key) => store.get(key),
      delete: async (key) => (await race(), store.delete(key)),
      compareAndDelete: async (expected) => (await race(), store.compareAndDelete(expected)),
    },
  })
}

describe("keys", () => {
  test("are <rule>:<HMAC-SHA-256(secret, subject)>:<window index>, with no raw subject", async () => {
    const { limiter, keys } = setup()
    await limiter.hit("signin", "ada@example.com")
    const mac = createHmac("sha256", SECRET)
      .update("tessera.rate-limit:ada@example.com")
      .digest("hex")
    const index = T0 / 60_000
    // The hits of this window and the last, and the successes taken off them (`succeeded`).
    expect(new Set(keys)).toEqual(
      new Set([
        `signin:${mac}:${index}`,
        `signin:${mac}:${index - 1}`,
        `signin:ok:${mac}:${index}`,
        `signin:ok:${mac}:${index - 1}`,
      ]),
    )
    for (const key of keys) expect(key).not.toMatch(/@|example/)
  })

  test("differ by secret (the first of a list is used)", async () => {
    const store = new MemoryRateLimitStore()
    const rules = { signin: { max: 1, window: 60 } }
    const a = createRateLimiter({ secret: [SECRET, "old-secret"], store, rules })
    const b = createRateLimiter({ secret: "another-secret-0123456789abcdef", store, rules })
    await a.hit("signin", "grace@example.com")
    expect((await a.check("signin", "grace@example.com")).limited).toBe(true)
    expect((await b.check("signin", "grace@example.com")).limited).toBe(false)
  })

  test("rules and subjects count apart", async () => {
    const { limiter, hits } = setup(2)
    await hits(2, "ada@example.com")
    expect((await limiter.check("signin", "ada@example.com")).limited).toBe(true)
    expect((await limiter.check("signin", "bob@example.com")).limited).toBe(false)
    expect((await limiter.check("mail", "ada@example.com")).limited).toBe(false)
  })
})

describe("check, hit, reset", () => {
  test("hit counts down `remaining`; the hit after the max is limited", async () => {
    const { limiter } = setup(3)
    const results = []
    for (let i = 0; i < 4; i++) results.push(await limiter.hit("signin", "ada@example.com"))
    expect(results.map((r) => [r.limited, r.remaining])).toEqual([
      [false, 2],
      [false, 1],
      [false, 0],
      [true, 0],
    ])
    expect(results.map((r) => r.retryAfter > 0)).toEqual([false, false, true, true])
  })

  test("check does not count, and refuses once the max is reached (even a right password)", async () => {
    const { limiter, hits } = setup(3)
    for (let i = 0; i < 10; i++)
      expect(await limiter.check("signin", "ada@example.com")).toEqual({
        limited: false,
        remaining: 3,
        retryAfter: 0,
      })
    await hits(3)
    const locked = await limiter.check("signin", "ada@example.com")
    expect(locked.limited).toBe(true)
    expect(locked.remaining).toBe(0)
    expect(locked.retryAfter).toBeGreaterThan(0)
  })

  test("reset forgets the current and the previous window", async () => {
    const { limiter, at, hits } = setup(10)
    await hits(6)
    at(WINDOW + 1)
    await hits(4)
    expect((await limiter.check("signin", "ada@example.com")).remaining).toBeLessThan(2)
    await limiter.reset("signin", "ada@example.com")
    expect(await limiter.check("signin", "ada@example.com")).toEqual({
      limited: false,
      remaining: 10,
      retryAfter: 0,
    })
  })

  test("reset forgets the hits taken back too: a later hit is not taken off by them", async () => {
    const { limiter, hits } = setup(2)
    await hits(1)
    await limiter.undo("signin", "ada@example.com")
    await limiter.reset("signin", "ada@example.com")
    await hits(2)
    // Left behind, the success taken back would make these two count as one.
    expect((await limiter.hit("signin", "ada@example.com")).limited).toBe(true)
  })

  test("reset deletes nothing when a hit was counted since it read the counts", async () => {
    const { limiter, store } = setup(10)
    const subject = "ada@example.com"
    // The other attempt lands between the read and the delete.
    const racing = racingLimiter(store, () => limiter.hit("signin", subject))
    await racing.hit("signin", subject)
    await racing.reset("signin", subject)
    expect((await limiter.check("signin", subject)).remaining).toBe(8)
  })

  test("succeeded (no spelling) clears as reset does: a guess counted as it clears stays", async () => {
    const { limiter, store } = setup(10)
    const subject = "ada@example.com"
    let raced = false
    // The attacker's guess lands at the first step that clears, whichever the limiter uses.
    const race = async () => {
      if (raced) return
      raced = true
      await limiter.hit("signin", subject)
    }
    const racing = racingLimiter(store, race)
    await racing.hit("signin", subject)
    await racing.hit("signin", subject)
    await racing.succeeded("signin", subject)
    expect(raced).toBe(true)
    // The earlier failure, the success's own hit taken back, and the guess still counted.
    expect((await limiter.check("signin", subject)).remaining).toBe(8)
  })

  test("an unknown rule and malformed rules are programming errors", async () => {
    const { limiter } = setup()
    await expect(limiter.hit("nope" as "signin", "x")).rejects.toThrow(/not defined/)
    for (const rule of [
      { max: 0, window: 60 },
      { max: 1.5, window: 60 },
      { max: 5, window: 0 },
      { max: 5, window: 0.5 },
    ])
      expect(() => createRateLimiter({ secret: SECRET, rules: { r: rule } })).toThrow(TypeError)
    expect(() =>
      createRateLimiter({ secret: SECRET, rules: { "a:b": { max: 1, window: 1 } } }),
    ).toThrow(TypeError)
    expect(() => createRateLimiter({ secret: "", rules: {} })).toThrow(/secret/)
  })
})

describe("the sliding window", () => {
  test("the previous window counts by the part of it still inside the window", async () => {
    const { limiter, at, hits } = setup(10)
    await hits(10)
    expect((await limiter.check("signin", "ada@example.com")).limited).toBe(true)
    // 15 s into the next window: 10 × 45/60 = 7.5 of the old hits still count.
    at(WINDOW + 15)
    expect(await limiter.check("signin", "ada@example.com")).toMatchObject({
      limited: false,
      remaining: 2,
    })
    at(WINDOW + 30)
    expect((await limiter.check("signin", "ada@example.com")).remaining).toBe(5)
    at(2 * WINDOW - 1)
    expect((await limiter.check("signin", "ada@example.com")).remaining).toBe(9)
    at(2 * WINDOW)
    expect((await limiter.check("signin", "ada@example.com")).remaining).toBe(10)
  })

  test("no burst at a window boundary (a fixed window would let 2 × max through)", async () => {
    const { limiter, at, hits } = setup(10)
    at(WINDOW - 1)
    await hits(10)
    at(WINDOW) // a new fixed window begins
    const next = await limiter.hit("signin", "ada@example.com")
    expect(next.limited).toBe(true)
  })

  test("retryAfter is when the next hit is allowed: not a second earlier", async () => {
    const { limiter, at, hits } = setup(10)
    await hits(10)
    // 10 hits at the window's start: the current window is full, and in the
    // next one 10 × (1 − f) + 1 ≤ 10 needs f ≥ 0.1, so 60 + 6 = 66 s.
    const { retryAfter } = await limiter.check("signin", "ada@example.com")
    expect(retryAfter).toBe(66)
    at(retryAfter - 1)
    expect((await limiter.check("signin", "ada@example.com")).limited).toBe(true)
    at(retryAfter)
    expect((await limiter.check("signin", "ada@example.com")).limited).toBe(false)
  })

  test("retryAfter within a window: waiting for the previous window's weight to fall", async () => {
    const { limiter, at, hits } = setup(10)
    await hits(8)
    at(WINDOW) // next window: the 8 weigh fully at its start
    await hits(2)
    // 8 × (1 − f) + 2 + 1 ≤ 10 needs f ≥ 1/8, 7.5 s into the window: 8 s, rounded up.
    const result = await limiter.check("signin", "ada@example.com")
    expect(result).toEqual({ limited: true, remaining: 0, retryAfter: 8 })
    at(WINDOW + 7)
    expect((await limiter.check("signin", "ada@example.com")).limited).toBe(true)
    at(WINDOW + 8)
    expect((await limiter.check("signin", "ada@example.com")).limited).toBe(false)
  })

  test("counters are kept for two windows (+1 s): as current, then as previous", async () => {
    const { limiter, store, keys, at } = setup(10)
    await limiter.hit("signin", "ada@example.com")
    const counter = keys.find((key) => key.endsWith(`:${T0 / 60_000}`) && !key.includes(":ok:"))!
    at(2 * WINDOW)
    expect(await store.get(counter)).toBe(1)
    at(2 * WINDOW + 1)
    expect(await store.get(counter)).toBe(0)
  })
})

describe("succeeded with a spelling (a subject compared loosely)", () => {
  /** One attempt under `spelling`, as the credentials lockout makes it. */
  async function attempt(
    limiter: ReturnType<typeof setup>["limiter"],
    spelling: string,
    ok: boolean,
  ) {
    await limiter.hit("signin", "ada")
    if (ok) await limiter.succeeded("signin", "ada", spelling)
    else await limiter.failed("signin", "ada", spelling)
  }

  test("clears the count when every failure was its own spelling's", async () => {
    const { limiter } = setup(5)
    for (let i = 0; i < 4; i++) await attempt(limiter, "ada", false)
    await attempt(limiter, "ada", true)
    expect((await limiter.check("signin", "ada")).remaining).toBe(5)
  })

  test("takes back only its own hit when another spelling failed (a look-alike's guesses stay)", async () => {
    const { limiter } = setup(5)
    for (let i = 0; i < 4; i++) await attempt(limiter, "ada", false)
    for (let i = 0; i < 3; i++) await attempt(limiter, "adá", true)
    expect((await limiter.check("signin", "ada")).remaining).toBe(1)
    // Not even the spelling that failed clears someone else's failures mixed in.
    await attempt(limiter, "Ada", false)
    await attempt(limiter, "ada", true)
    expect((await limiter.check("signin", "ada")).remaining).toBe(0)
  })

  test("the previous window's failures under another spelling also keep it from clearing", async () => {
    const { limiter, at } = setup(5)
    for (let i = 0; i < 4; i++) await attempt(limiter, "ada", false)
    at(WINDOW + 6) // a tenth into the next window: the 4 still weigh 3.6
    await attempt(limiter, "adá", true)
    expect((await limiter.check("signin", "ada")).remaining).toBe(1)
    await attempt(limiter, "ada", true)
    expect((await limiter.check("signin", "ada")).remaining).toBe(5)
  })

  test("many successes alone never add up", async () => {
    const { limiter } = setup(3)
    for (let i = 0; i < 10; i++) await attempt(limiter, i % 2 ? "ada" : "ADA", true)
    expect((await limiter.check("signin", "ada")).remaining).toBe(3)
  })
})
