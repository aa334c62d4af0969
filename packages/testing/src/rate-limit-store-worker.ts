/**
 * The child side of the rate-limit store suite's two-process test: a script
 * that opens its own store on the shared backend, waits for the parent's "go",
 * increments one key N times, and reports the counts it got back.
 *
 * Kept apart from the suite so a worker script loads no test runner: it is run
 * by plain `node`, against the built packages, as an app would run them.
 *
 * @example
 * ```js
 * // test/rate-limit-worker.mjs
 * import { runRateLimitStoreWorker } from "@tessera/testing/rate-limit-store-worker"
 * import { MyRateLimitStore } from "my-store"
 *
 * await runRateLimitStoreWorker(async () => {
 *   const client = await connect(process.env.MY_STORE_URL)
 *   return { store: new MyRateLimitStore(client), close: () => client.quit() }
 * })
 * ```
 * @module
 */
import { createInterface } from "node:readline"
import type { RateLimitStore } from "@tessera/core/rate-limit"

/**
 * Environment variables the suite sets for the worker.
 *
 * @see {@link runRateLimitStoreWorker}
 */
export const WORKER_ENV = {
  key: "TESSERA_RATE_LIMIT_KEY",
  count: "TESSERA_RATE_LIMIT_COUNT",
  ttl: "TESSERA_RATE_LIMIT_TTL",
} as const

/**
 * Increments `key` `count` times, `parallel` at a time, and returns every count
 * the store answered, in completion order.
 *
 * @param store The store.
 * @param key The counter.
 * @param count How many increments.
 * @param ttlSeconds The counter's window.
 * @param parallel How many at a time (default 8).
 * @see {@link runRateLimitStoreTests}
 */
export async function incrementMany(
  store: RateLimitStore,
  key: string,
  count: number,
  ttlSeconds: number,
  parallel = 8,
): Promise<number[]> {
  const results: number[] = []
  let started = 0
  const lane = async () => {
    while (started < count) {
      started++
      results.push(await store.increment(key, ttlSeconds))
    }
  }
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, lane))
  return results
}

/**
 * Runs the worker protocol on stdin/stdout: opens the store, prints `ready`,
 * waits for a `go` line, increments, prints `done <JSON array of counts>`,
 * closes the store. Any failure is printed to stderr and exits non-zero.
 *
 * @param open makes the store (connecting to the backend named in the
 *   environment) and, optionally, a function that closes it
 *
 * @see {@link runRateLimitStoreTests}
 */
export async function runRateLimitStoreWorker(
  open: () => Promise<{ store: RateLimitStore; close?: () => Promise<void> | void }>,
): Promise<void> {
  try {
    const key = process.env[WORKER_ENV.key]
    const count = Number(process.env[WORKER_ENV.count])
    const ttl = Number(process.env[WORKER_ENV.ttl])
    if (!key || !(count > 0) || !(ttl > 0))
      throw new Error(`The worker needs ${Object.values(WORKER_ENV).join(", ")} in its environment`)
    const { store, close } = await open()
    // Connect now (drivers connect lazily), so "go" starts increments, not a handshake.
    await store.get(key)
    const lines = createInterface({ input: process.stdin })
    const go = new Promise<void>((resolve, reject) => {
      lines.on("line", (line) => line.trim() === "go" && resolve())
      lines.on("close", () => reject(new Error("stdin closed before go")))
    })
    process.stdout.write("ready\n")
    await go
    const counts = await incrementMany(store, key, count, ttl)
    process.stdout.write(`done ${JSON.stringify(counts)}\n`)
    lines.close()
    await close?.()
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`)
    process.exitCode = 1
  }
}
