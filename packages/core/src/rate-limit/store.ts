/**
 * The storage behind rate limits: named counters, nothing else. One small
 * interface, so a new backend (memory, SQL, Redis, a KV service) is three
 * methods, and one conformance suite (`runRateLimitStoreTests` in
 * `@tessera/testing`) checks any of them.
 *
 * Stores need no clock to be correct: the limiter puts the window's index in
 * every key, so a new window is a new counter. The TTL only lets the store drop
 * counters nobody will read again.
 *
 * `compareAndDelete` is optional, so a custom store written before it still
 * works: without it, a success clears its counters in two steps (read, then
 * delete), and a failure counted between the two is lost with them.
 * @module
 */

/**
 * Counters shared by every process that enforces the same limits.
 *
 * @example
 * ```ts
 * const store: RateLimitStore = new MemoryRateLimitStore()
 * await store.increment("signin:3f2a…:28934", 120) // 1
 * await store.increment("signin:3f2a…:28934", 120) // 2
 * await store.get("signin:3f2a…:28934") // 2
 * ```
 *
 * @see [Redis: INCR, pattern: rate limiter](https://redis.io/docs/latest/commands/incr/#pattern-rate-limiter)
 */
export interface RateLimitStore {
  /**
   * Adds one to `key` and returns the new count, atomically: N concurrent
   * calls, from any number of processes, return 1 to N, each once. A new
   * counter starts at 1; the store may drop it `ttlSeconds` after that first
   * hit (later hits do not extend it).
   *
   * @param key at most a few hundred characters of `[A-Za-z0-9_.:-]`
   * @param ttlSeconds a whole number of seconds, at least 1
   */
  increment(key: string, ttlSeconds: number): Promise<number>
  /** The current count of `key`; 0 when it is unknown or expired. */
  get(key: string): Promise<number>
  /** Forgets `key` (a later `increment` starts again at 1). */
  delete(key: string): Promise<void>
  /**
   * Forgets every key of `expected` at once, and only if each still holds the
   * count given (0: unknown or expired), atomically against `increment` from
   * any process: either all go, or none. Returns whether they went. A key
   * expected at 0 is compared like any other: when every key is expected at 0,
   * the answer is `true` only if each is still absent (there is nothing to
   * delete), and `false` when one was counted since.
   *
   * The limiter reads a subject's counters after a success, decides from them
   * that every failure counted was the user's own, and clears them with this:
   * an attempt counted since the read (someone else's guess, made while the
   * user signed in) makes it delete nothing, so the guess stays counted.
   * Optional: without it the limiter reads and then deletes each key (a guess
   * counted in between is lost), and `Auth()` warns
   * `rate-limit-store-not-atomic` once at start.
   *
   * @param expected each key with the count `get` gave for it
   * @returns `true` when the keys were deleted, `false` when one had changed
   */
  compareAndDelete?(expected: Readonly<Record<string, number>>): Promise<boolean>
}
