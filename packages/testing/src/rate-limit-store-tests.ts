/**
 * The rate-limit store conformance suite: one set of tests every
 * `RateLimitStore` must pass (the memory store, SQLite, PostgreSQL, Redis, or
 * your own). Built on vitest: call it at the top level of a test file.
 *
 * What it checks: increment/get/delete semantics, that keys are independent,
 * `compareAndDelete` deleting all its keys or none (optional in the interface:
 * a store without it lists its two tests in `skipTests`),
 * expiry where the test can observe it, 100 concurrent increments in one
 * process counting exactly 100, and two processes incrementing one key on the
 * same backend counting exactly 2N, every count handed out once.
 *
 * Every test uses keys of its own (random), so the suite needs no empty
 * backend and does not depend on test order.
 *
 * @example
 * ```ts
 * import { runRateLimitStoreTests } from "@tessera/testing/suites"
 *
 * runRateLimitStoreTests({
 *   name: "MyRateLimitStore",
 *   createStore: async () => new MyRateLimitStore(await connect(url)),
 *   crossProcess: { worker: new URL("./rate-limit-worker.mjs", import.meta.url), env: { MY_STORE_URL: url } },
 * })
 * ```
 * @module
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { RateLimitStore } from "@tessera/core/rate-limit"
import { WORKER_ENV, incrementMany } from "./rate-limit-store-worker.js"

type Awaitable<T> = T | PromiseLike<T>

/**
 * Runs the two-process test: a worker script (see `runRateLimitStoreWorker`) and its environment.
 *
 * @see {@link runRateLimitStoreTests}
 */
export interface CrossProcessOptions {
  /** The worker script, run with `node` (so: JavaScript, importing built packages). */
  worker: string | URL
  /** Added to the worker's environment (where the backend is, for instance); a function is called when the test runs. */
  env?: Record<string, string> | (() => Record<string, string>)
  /** Increments per process. Default 200. */
  count?: number
  /**
   * Files the worker needs, such as the built package it imports. When one is
   * missing the test is skipped with a warning naming it (running one test
   * file does not build the packages; `npm test` does).
   */
  requires?: (string | URL)[]
}

/**
 * Options of {@link runRateLimitStoreTests}: how to make and close the store, and how other
 * processes reach it.
 *
 * @see [docs/testing.md: conformance suites](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#conformance-suites)
 */
export interface RateLimitStoreTestOptions {
  /** The describe block's name. Default "rate-limit store conformance". */
  name?: string
  /** Makes the store, once, before the tests (connect, migrate). */
  createStore(): Awaitable<RateLimitStore>
  /** Called once after the tests, with the store. */
  close?(store: RateLimitStore): Awaitable<void>
  /**
   * Moves the store's clock forward, for a store that takes an injectable
   * clock: the suite then checks that counters expire `ttlSeconds` after their
   * first hit. Leave it out when time cannot be moved (then see `ttl`).
   */
  advanceClock?(seconds: number): Awaitable<void>
  /**
   * The backend's remaining time to live of a key, in seconds (Redis `TTL`),
   * or null when the key has none: the suite checks that the first hit sets
   * it and later hits do not extend it.
   */
  ttl?(key: string): Awaitable<number | null>
  /**
   * The two-process test, or `false` for a store whose counters live in one
   * process (the memory store), where it does not apply.
   */
  crossProcess: CrossProcessOptions | false
  /** Names of tests not to register. */
  skipTests?: string[]
}

const TWO_PROCESSES =
  "two processes incrementing one key count exactly 2N, every count handed out once"

const uniqueKey = (label: string) => `suite-${label}:${crypto.randomUUID()}:1`

/** Runs the worker, says "go" when it is ready, and meanwhile increments from here too. */
async function twoProcesses(
  store: RateLimitStore,
  options: CrossProcessOptions,
  key: string,
  ttl: number,
): Promise<{ here: number[]; there: number[] }> {
  const count = options.count ?? 200
  const worker = options.worker instanceof URL ? fileURLToPath(options.worker) : options.worker
  const extra = typeof options.env === "function" ? options.env() : (options.env ?? {})
  const child = spawn(process.execPath, [worker], {
    env: {
      ...process.env,
      ...extra,
      [WORKER_ENV.key]: key,
      [WORKER_ENV.count]: String(count),
      [WORKER_ENV.ttl]: String(ttl),
    },
    stdio: ["pipe", "pipe", "pipe"],
  })
  let stderr = ""
  child.stderr.on("data", (chunk) => (stderr += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve))
  const lines = createInterface({ input: child.stdout })
  let here: Promise<number[]> | undefined
  let there: number[] | undefined
  lines.on("line", (line) => {
    if (line === "ready") {
      child.stdin.write("go\n")
      here = incrementMany(store, key, count, ttl)
    } else if (line.startsWith("done ")) there = JSON.parse(line.slice(5)) as number[]
  })
  const code = await exited
  if (code !== 0 || !there || !here)
    throw new Error(`The rate-limit worker ${worker} failed (exit ${code}):\n${stderr.trim()}`)
  child.stdin.end()
  return { here: await here, there }
}

/**
 * Registers the conformance tests (vitest `describe`/`test`).
 *
 * @param options how to make and close the store, which time-related checks
 *   it allows, and the worker for the two-process test.
 * @example
 * ```ts
 * runRateLimitStoreTests({ name: "memory", createStore: () => new MemoryRateLimitStore(), crossProcess: false })
 * ```
 *
 * @see [docs/testing.md: conformance suites](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#conformance-suites)
 */
export function runRateLimitStoreTests(options: RateLimitStoreTestOptions): void {
  const { name = "rate-limit store conformance", skipTests = [] } = options
  const skipped = new Set(skipTests)
  const it = (title: string, fn: () => Promise<void>, timeout?: number) => {
    if (!skipped.has(title)) test(title, fn, timeout)
  }
  let store: RateLimitStore

  describe(name, () => {
    beforeAll(async () => {
      store = await options.createStore()
    })
    afterAll(async () => {
      if (store) await options.close?.(store)
    })

    it("increment counts from 1 and get reads the count", async () => {
      const key = uniqueKey("count")
      expect(await store.get(key)).toBe(0)
      expect(await store.increment(key, 60)).toBe(1)
      expect(await store.increment(key, 60)).toBe(2)
      expect(await store.increment(key, 60)).toBe(3)
      expect(await store.get(key)).toBe(3)
      expect(await store.get(key)).toBe(3)
    })

    it("delete forgets a key, and the next increment starts at 1", async () => {
      const key = uniqueKey("delete")
      await store.increment(key, 60)
      await store.increment(key, 60)
      await store.delete(key)
      expect(await store.get(key)).toBe(0)
      expect(await store.increment(key, 60)).toBe(1)
      await store.delete(uniqueKey("never-written"))
    })

    it("keys are independent, prefixes included", async () => {
      const base = uniqueKey("independent")
      const keys = [base, `${base}0`, `${base.slice(0, -1)}2`, base.toUpperCase()]
      for (const [i, key] of keys.entries())
        for (let n = 0; n <= i; n++) await store.increment(key, 60)
      expect(await Promise.all(keys.map((key) => store.get(key)))).toEqual([1, 2, 3, 4])
      await store.delete(keys[1]!)
      expect(await Promise.all(keys.map((key) => store.get(key)))).toEqual([1, 0, 3, 4])
    })

    // Optional in the interface: a store without it lists these two in `skipTests`.
    it("compareAndDelete deletes every key when each holds its count (absent: 0)", async () => {
      expect(store.compareAndDelete).toBeTypeOf("function")
      const [one, two, absent] = ["cad-one", "cad-two", "cad-absent"].map(uniqueKey)
      await store.increment(one!, 60)
      for (let n = 0; n < 3; n++) await store.increment(two!, 60)
      expect(await store.compareAndDelete!({ [one!]: 1, [two!]: 3, [absent!]: 0 })).toBe(true)
      expect(await Promise.all([one!, two!, absent!].map((key) => store.get(key)))).toEqual([
        0, 0, 0,
      ])
      expect(await store.increment(two!, 60)).toBe(1)
      // Every key expected at 0 and still absent: nothing to delete, and nothing changed.
      expect(await store.compareAndDelete!({ [uniqueKey("cad-none")]: 0, [absent!]: 0 })).toBe(true)
    })

    it("compareAndDelete deletes none when one key changed since it was read", async () => {
      expect(store.compareAndDelete).toBeTypeOf("function")
      const [one, two, absent] = ["cad-kept", "cad-moved", "cad-appeared"].map(uniqueKey)
      await store.increment(one!, 60)
      await store.increment(two!, 60)
      await store.increment(two!, 60)
      expect(await store.compareAndDelete!({ [one!]: 1, [two!]: 1 })).toBe(false)
      expect(await Promise.all([one!, two!].map((key) => store.get(key)))).toEqual([1, 2])
      await store.increment(absent!, 60)
      expect(await store.compareAndDelete!({ [one!]: 1, [two!]: 2, [absent!]: 0 })).toBe(false)
      expect(await Promise.all([one!, two!, absent!].map((key) => store.get(key)))).toEqual([
        1, 2, 1,
      ])
      // Every key expected at 0, one counted since: compared like any other, so `false`.
      const still = uniqueKey("cad-still-absent")
      expect(await store.compareAndDelete!({ [still]: 0, [absent!]: 0 })).toBe(false)
      expect(await store.get(absent!)).toBe(1)
    })

    it("100 concurrent increments of one key return 1 to 100, each once", async () => {
      const key = uniqueKey("concurrent")
      const counts = await Promise.all(Array.from({ length: 100 }, () => store.increment(key, 60)))
      expect([...counts].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 100 }, (_, i) => i + 1),
      )
      expect(await store.get(key)).toBe(100)
    })

    if (options.advanceClock) {
      const advance = options.advanceClock
      it("a counter expires ttlSeconds after its first hit, and later hits do not extend it", async () => {
        const key = uniqueKey("expiry")
        await store.increment(key, 10)
        await advance(6)
        expect(await store.increment(key, 10)).toBe(2)
        await advance(3)
        expect(await store.get(key)).toBe(2)
        await advance(2)
        expect(await store.get(key)).toBe(0)
        expect(await store.increment(key, 10)).toBe(1)
      })
    }

    if (options.ttl) {
      const ttlOf = options.ttl
      it("the first hit sets the TTL; later hits do not extend it", async () => {
        const key = uniqueKey("ttl")
        await store.increment(key, 100)
        const first = await ttlOf(key)
        expect(first).not.toBeNull()
        expect(first!).toBeGreaterThan(90)
        expect(first!).toBeLessThanOrEqual(100)
        await store.increment(key, 10_000)
        expect(await ttlOf(key)).toBeLessThanOrEqual(100)
      })
    }

    if (options.crossProcess) {
      const crossProcess = options.crossProcess
      const missing = (crossProcess.requires ?? [])
        .map((file) => (file instanceof URL ? fileURLToPath(file) : file))
        .filter((file) => !existsSync(file))
      if (missing.length > 0) {
        console.warn(
          `[${name}] ${missing.join(", ")} not found (npm run build): the two-process test did NOT run`,
        )
        skipped.add(TWO_PROCESSES)
      }
      it(
        TWO_PROCESSES,
        async () => {
          const key = uniqueKey("two-processes")
          const { here, there } = await twoProcesses(store, crossProcess, key, 60)
          const total = here.length + there.length
          expect(total).toBe(2 * (crossProcess.count ?? 200))
          expect([...here, ...there].sort((a, b) => a - b)).toEqual(
            Array.from({ length: total }, (_, i) => i + 1),
          )
          expect(await store.get(key)).toBe(total)
        },
        60_000,
      )
    }
  })
}
