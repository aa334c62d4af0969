/**
 * `@tessera/redis`: Tessera's stores on Redis, through the `redis` client
 * (node-redis v5, a peer dependency): today the rate-limit store, so that
 * every process behind a load balancer counts in one place.
 *
 * @example
 * ```ts
 * import { createClient } from "redis"
 * import { RedisRateLimitStore } from "@tessera/redis"
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect()
 * const store = RedisRateLimitStore(redis)
 * ```
 * @module
 */
export {
  RedisRateLimitStore,
  type RedisCommands,
  type RedisRateLimitStoreOptions,
} from "./rate-limit-store.js"
