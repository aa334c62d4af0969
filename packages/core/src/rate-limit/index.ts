/**
 * `@tessera/core/rate-limit`: the building blocks of abuse protection. A
 * limiter with named sliding-window rules over a small store interface, and the
 * default store, in memory. Stores for several processes: `SqlRateLimitStore`
 * in `@tessera/sql`, `RedisRateLimitStore` in `@tessera/redis`; the
 * conformance suite for your own: `runRateLimitStoreTests` in `@tessera/testing`.
 *
 * @example
 * ```ts
 * import { createRateLimiter } from "@tessera/core/rate-limit"
 *
 * const limiter = createRateLimiter({
 *   secret: process.env.AUTH_SECRET!,
 *   rules: { "signin-email": { max: 5, window: 900 } },
 * })
 * const { limited, retryAfter } = await limiter.hit("signin-email", "ada@example.com")
 * ```
 * @module
 */
export type { RateLimitStore } from "./store.js"
export {
  MemoryRateLimitStore,
  defaultRateLimitStore,
  type MemoryRateLimitStoreOptions,
} from "./memory-store.js"
export {
  createRateLimiter,
  type RateLimiter,
  type RateLimiterOptions,
  type RateLimitRule,
  type RateLimitResult,
} from "./limiter.js"
