/**
 * A time bound on every call to a rate-limit store. An app's own store on a
 * network service that accepts the connection and never answers would hold
 * each sign-in it guards open for good; past the bound the call fails, and the
 * limits fail closed on it as on any store that fails (`error=Configuration`).
 * The store's late answer, whatever it is, is ignored (the race has already
 * listened to it, so a late rejection is never unhandled).
 * @module
 */
import type { RateLimitStore } from "./store.js"

/**
 * 5 s: a healthy store answers in milliseconds, and the bound is there for one that never
 * answers, not to fail a busy one (a SQL store waiting for a pooled connection under load).
 * Longer than `RedisRateLimitStore`'s own `timeout` (1 s), so its more precise error comes first.
 */
export const DEFAULT_STORE_TIMEOUT_MS = 5000

/** The most `setTimeout` takes (2^31 − 1 ms): a larger bound would fire at once. */
export const MAX_STORE_TIMEOUT_MS = 2 ** 31 - 1

/** True for a bound `setTimeout` honours: a positive number of milliseconds, at most ~24.8 days. */
export function isStoreTimeout(value: unknown): value is number {
  return typeof value === "number" && value > 0 && value <= MAX_STORE_TIMEOUT_MS
}

/**
 * `store` with each call failing with a `TimeoutError` (the web platform's, as
 * `AbortSignal.timeout` raises) when it has not settled within `ms`. The
 * message names the method only: never the key (a keyed hash of who signs in).
 */
export function boundedStore(store: RateLimitStore, ms: number): RateLimitStore {
  function bounded<T>(method: keyof RateLimitStore, call: () => Promise<T>): Promise<T> {
    // A store that throws instead of returning a promise fails the same way. Called
    // before the timer is set: a store's own bound of the same length (RedisRateLimitStore's
    // `timeout`) fires first, and its more precise error is the one reported.
    const answer = new Promise<T>((resolve) => resolve(call()))
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const message = `The rate-limit store did not answer ${method} within ${ms} ms`
        reject(new DOMException(message, "TimeoutError"))
      }, ms)
    })
    return Promise.race([answer, late]).finally(() => clearTimeout(timer))
  }
  const bound: RateLimitStore = {
    increment: (key, ttlSeconds) => bounded("increment", () => store.increment(key, ttlSeconds)),
    get: (key) => bounded("get", () => store.get(key)),
    delete: (key) => bounded("delete", () => store.delete(key)),
  }
  // Only where the store has it: its absence is what tells the limiter to fall back.
  if (typeof store.compareAndDelete === "function") {
    const compareAndDelete = store.compareAndDelete.bind(store)
    bound.compareAndDelete = (expected) =>
      bounded("compareAndDelete", () => compareAndDelete(expected))
  }
  return bound
}
