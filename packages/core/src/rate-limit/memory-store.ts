/**
 * The default rate-limit store: counters in this process's memory.
 *
 * Right for one server process. Behind a load balancer, or with several
 * workers, each process would count alone and an attacker would get N times
 * the limit: use `@tessera/sql`'s or `@tessera/redis`'s store there.
 * @module
 */
import type { RateLimitStore } from "./store.js"

/**
 * Options of {@link MemoryRateLimitStore}.
 *
 * @see {@link MemoryRateLimitStore}
 */
export interface MemoryRateLimitStoreOptions {
  /**
   * The most counters kept (default 100,000, a few tens of MiB at most). When
   * full, expired counters go first, then the live ones with the fewest hits
   * (the oldest first among equals): bounded memory is worth more than exact
   * counts under a flood of new keys, but a flood (one hit per key) must not
   * push out the counter that locks someone out.
   */
  maxKeys?: number
  /** The clock for expiry, in milliseconds (default `Date.now`); tests move it by hand. */
  now?: () => number
}

interface Entry {
  count: number
  expiresAt: number
}

/** How often, at most, an increment scans for expired counters. */
const SWEEP_INTERVAL = 60_000

/**
 * Counters in a `Map`, bounded, with no timer: expired entries are swept by
 * the increments themselves (at most once a minute, or when the map is full),
 * so the store never keeps a process alive and costs nothing when idle.
 *
 * Most apps want {@link defaultRateLimitStore}, the one instance shared by the
 * whole process; make your own for tests or a separate budget.
 *
 * @example
 * ```ts
 * import { MemoryRateLimitStore, createRateLimiter } from "@tessera/core/rate-limit"
 * const store = new MemoryRateLimitStore({ maxKeys: 10_000 })
 * const limiter = createRateLimiter({ secret, store, rules: { signin: { max: 5, window: 60 } } })
 * ```
 *
 * @param options `maxKeys` (the most counters kept) and `now` (the clock).
 * @see {@link RateLimitStore}
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #entries = new Map<string, Entry>()
  readonly #maxKeys: number
  readonly #now: () => number
  #nextSweep = 0

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    const { maxKeys = 100_000, now = Date.now } = options
    if (!Number.isInteger(maxKeys) || maxKeys < 1)
      throw new TypeError("MemoryRateLimitStore: maxKeys must be a positive integer")
    this.#maxKeys = maxKeys
    this.#now = now
  }

  /** How many counters are held, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size
  }

  async increment(key: string, ttlSeconds: number): Promise<number> {
    const now = this.#now()
    let entry = this.#live(key, now)
    if (!entry) {
      this.#makeRoom(now)
      entry = { count: 0, expiresAt: now + ttlSeconds * 1000 }
      this.#entries.set(key, entry)
    }
    return ++entry.count
  }

  async get(key: string): Promise<number> {
    return this.#live(key, this.#now())?.count ?? 0
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key)
  }

  /** Atomic with no lock: it compares and deletes without awaiting in between. */
  async compareAndDelete(expected: Readonly<Record<string, number>>): Promise<boolean> {
    const now = this.#now()
    const keys = Object.keys(expected)
    if (keys.some((key) => (this.#live(key, now)?.count ?? 0) !== expected[key])) return false
    for (const key of keys) this.#entries.delete(key)
    return true
  }

  #live(key: string, now: number): Entry | undefined {
    const entry = this.#entries.get(key)
    if (entry && entry.expiresAt <= now) {
      this.#entries.delete(key)
      return undefined
    }
    return entry
  }

  /**
   * Sweeps expired entries once a minute, and whenever the map is full; when
   * it was full, also drops live entries down to 90% of the cap, so a flood of
   * new keys costs one sweep per 10% of the cap, not one per key. Those with
   * the fewest hits go first, the oldest first among equals (a stable sort of
   * the `Map`'s insertion order): dropping the oldest alone let an attacker
   * free an identifier they had locked by sending attempts under enough fresh
   * identifiers, then guess again.
   */
  #makeRoom(now: number): void {
    const full = this.#entries.size >= this.#maxKeys
    if (!full && now < this.#nextSweep) return
    this.#nextSweep = now + SWEEP_INTERVAL
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key)
    if (!full) return
    const excess = this.#entries.size - Math.floor(this.#maxKeys * 0.9)
    if (excess <= 0) return
    const fewestHitsFirst = [...this.#entries].sort(([, a], [, b]) => a.count - b.count)
    for (const [key] of fewestHitsFirst.slice(0, excess)) this.#entries.delete(key)
  }
}

const SHARED = Symbol.for("tessera.rate-limit.memory-store")

/**
 * The process-wide memory store. Kept on `globalThis`, so every limiter in the
 * process counts in the same place: frameworks that build a new config object
 * per request, and bundlers that load a second copy of this module (a dev
 * server's reloads), still share one set of counters.
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({ secret, store: defaultRateLimitStore(), rules })
 * ```
 *
 * @see {@link MemoryRateLimitStore}
 */
export function defaultRateLimitStore(): RateLimitStore {
  const scope = globalThis as { [SHARED]?: RateLimitStore }
  return (scope[SHARED] ??= new MemoryRateLimitStore())
}
