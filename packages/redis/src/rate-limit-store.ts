/**
 * Rate-limit counters in Redis, shared by every process and server that talks
 * to it: the store to use behind a load balancer when the app already has Redis.
 *
 * `increment` is one Lua script: INCR, and EXPIRE when the counter is new (or
 * somehow has no TTL). Redis runs a script atomically, so the TTL is set on
 * the first hit with no window in which a crash could leave a counter that
 * never expires, and later hits do not extend it. A script rather than MULTI
 * because "set the TTL only on the first hit" needs INCR's result; `EXPIRE NX`
 * would do it in MULTI but needs Redis 7. Every command touches one key, so it
 * works on Redis Cluster too.
 * @module
 */
import type { RateLimitStore } from "@tessera/core/rate-limit"

/**
 * The commands used, as node-redis v5 clients have them (`createClient()`,
 * `createCluster()`, `createClientPool()`); typed structurally so any of them,
 * or a compatible wrapper, fits.
 *
 * @see [node-redis](https://github.com/redis/node-redis)
 * @see [Redis: INCR, pattern: rate limiter](https://redis.io/docs/latest/commands/incr/#pattern-rate-limiter)
 */
export interface RedisCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  get(key: string): Promise<unknown>
  del(key: string): Promise<unknown>
}

/**
 * Options of {@link RedisRateLimitStore}.
 *
 * @see [Redis: INCR, pattern: rate limiter](https://redis.io/docs/latest/commands/incr/#pattern-rate-limiter)
 */
export interface RedisRateLimitStoreOptions {
  /** Put before every key, to keep Tessera's keys apart from the app's. Default `"tessera:rate-limit:"`. */
  prefix?: string
}

/** INCR; EXPIRE when the counter is new or has no TTL (TTL answers -1 for "none"). */
const INCREMENT = `local count = redis.call("INCR", KEYS[1])
if count == 1 or redis.call("TTL", KEYS[1]) == -1 then
  redis.call("EXPIRE", KEYS[1], ARGV[1])
end
return count`

/** A reply as a number: RESP2 gives strings, RESP3 or a type mapping may give numbers or buffers. */
function toCount(reply: unknown): number {
  if (reply === null || reply === undefined) return 0
  const count = Number(typeof reply === "object" ? String(reply) : reply)
  if (!Number.isSafeInteger(count))
    throw new TypeError("Redis answered a counter that is not a number")
  return count
}

/**
 * A rate-limit store on a connected node-redis client.
 *
 * @param client a connected node-redis v5 client (or cluster, or pool); the
 *   app owns it: connect it before use, close it at shutdown
 * @param options the key prefix
 * @example
 * ```ts
 * import { createClient } from "redis"
 * import { RedisRateLimitStore } from "@tessera/redis"
 * import { createRateLimiter } from "@tessera/core/rate-limit"
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect()
 * const limiter = createRateLimiter({
 *   secret: process.env.AUTH_SECRET!,
 *   store: RedisRateLimitStore(redis, { prefix: "myapp:rl:" }),
 *   rules: { "signin-email": { max: 5, window: 900 } },
 * })
 * ```
 * @see https://redis.io/docs/latest/develop/interact/programmability/eval-intro/
 * @see https://redis.io/docs/latest/commands/incr/#pattern-rate-limiter-2
 */
export function RedisRateLimitStore(
  client: RedisCommands,
  options: RedisRateLimitStoreOptions = {},
): RateLimitStore {
  const prefix = options.prefix ?? "tessera:rate-limit:"
  return {
    async increment(key, ttlSeconds) {
      const ttl = String(Math.max(1, Math.ceil(ttlSeconds)))
      return toCount(await client.eval(INCREMENT, { keys: [prefix + key], arguments: [ttl] }))
    },
    async get(key) {
      return toCount(await client.get(prefix + key))
    },
    async delete(key) {
      await client.del(prefix + key)
    },
  }
}
