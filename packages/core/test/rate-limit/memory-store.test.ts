/**
 * The default in-memory store: the conformance suite, its bound on memory
 * (expired counters go first, then the oldest), and the process-wide instance.
 */
import { describe, expect, test } from "vitest"
import { runRateLimitStoreTests } from "@tessera/testing/suites"
import {
  MemoryRateLimitStore,
  createRateLimiter,
  defaultRateLimitStore,
} from "@tessera/core/rate-limit"

let clock = 1_700_000_000_000

runRateLimitStoreTests({
  name: "MemoryRateLimitStore conformance",
  createStore: () => new MemoryRateLimitStore({ now: () => clock }),
  advanceClock: (seconds) => {
    clock += seconds * 1000
  },
  // Its counters live in this process: there is no second process to share them with.
  crossProcess: false,
})

describe("MemoryRateLimitStore", () => {
  test("holds at most maxKeys counters: expired ones are dropped first", async () => {
    let now = 0
    const store = new MemoryRateLimitStore({ maxKeys: 10, now: () => now })
    for (let i = 0; i < 5; i++) await store.increment(`short-${i}`, 1)
    for (let i = 0; i < 5; i++) await store.increment(`long-${i}`, 3600)
    expect(store.size).toBe(10)
    now = 2000 // the short ones have expired
    await store.increment("new", 3600)
    expect(store.size).toBe(6)
    for (let i = 0; i < 5; i++) expect(await store.get(`long-${i}`)).toBe(1)
    expect(await store.get("new")).toBe(1)
  })

  test("when every counter is live, the oldest go, down to 90% of the cap", async () => {
    const store = new MemoryRateLimitStore({ maxKeys: 100 })
    for (let i = 0; i < 100; i++) await store.increment(`key-${i}`, 3600)
    expect(store.size).toBe(100)
    await store.increment("one-more", 3600)
    expect(store.size).toBeLessThanOrEqual(91)
    expect(await store.get("key-0")).toBe(0)
    expect(await store.get("key-99")).toBe(1)
    expect(await store.get("one-more")).toBe(1)
    // A flood of new keys never takes it over the cap.
    for (let i = 0; i < 1000; i++) await store.increment(`flood-${i}`, 3600)
    expect(store.size).toBeLessThanOrEqual(100)
  })

  test("an idle process sweeps nothing and holds no timer (nothing keeps it alive)", async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length
    const store = new MemoryRateLimitStore()
    await store.increment("k", 60)
    const after = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length
    expect(after).toBe(before)
  })

  test("rejects a cap that is not a positive integer", () => {
    expect(() => new MemoryRateLimitStore({ maxKeys: 0 })).toThrow(TypeError)
    expect(() => new MemoryRateLimitStore({ maxKeys: 1.5 })).toThrow(TypeError)
  })
})

describe("defaultRateLimitStore", () => {
  test("is one store per process, shared by limiters made from new config objects", async () => {
    expect(defaultRateLimitStore()).toBe(defaultRateLimitStore())
    // A framework that builds the config (and so the limiter) per request.
    const perRequest = () =>
      createRateLimiter({
        secret: "a-secret-of-at-least-32-characters!!",
        rules: { signin: { max: 3, window: 60 } },
      })
    const subject = `shared-${crypto.randomUUID()}@example.com`
    await perRequest().hit("signin", subject)
    await perRequest().hit("signin", subject)
    await perRequest().hit("signin", subject)
    expect(await perRequest().check("signin", subject)).toMatchObject({
      limited: true,
      remaining: 0,
    })
    await perRequest().reset("signin", subject)
  })

  test("lives on globalThis, so a second copy of the module finds the same store", () => {
    const shared = (globalThis as Record<symbol, unknown>)[
      Symbol.for("tessera.rate-limit.memory-store")
    ]
    expect(shared).toBe(defaultRateLimitStore())
  })
})
