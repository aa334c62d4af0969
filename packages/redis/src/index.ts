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
 * const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true })
 * redis.on("error", (error) => console.error("Redis:", error.message)) // required: see the README
 * await redis.connect()
 * const store = RedisRateLimitStore(redis)
 * ```
 * @module
 */
export {
  RedisRateLimitStore,
  type RedisCommands,
  type RedisRateLimitStoreOptions,
} from "./rate-limit-store.js"
