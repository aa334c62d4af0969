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
 *
 * `compareAndDelete` is one Lua script over all its keys: it compares every
 * counter, then deletes them all, or none. On Redis Cluster the keys of one
 * subject hash to different slots and Redis refuses a script over several
 * (CROSSSLOT): there all are compared first, then each key is compared and
 * deleted by a script of its own, atomic per key only (a guess counted
 * between the two still stays, with the counter it changed).
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
  /**
   * Milliseconds to wait for Redis's answer to each command; default 1000.
   * Past it the command fails with a `TimeoutError` and so does the sign-in
   * (`error=Configuration`): a Redis that is down or does not answer must not
   * hold sign-ins open. node-redis alone waits as long as it takes: its
   * offline queue keeps commands while it reconnects, and a command already
   * sent waits for a reply however long the server is silent.
   */
  timeout?: number
}

/** See {@link RedisRateLimitStoreOptions.timeout}. */
const DEFAULT_TIMEOUT = 1000

/** INCR; EXPIRE when the counter is new or has no TTL (TTL answers -1 for "none"). */
const INCREMENT = `local count = redis.call("INCR", KEYS[1])
if count == 1 or redis.call("TTL", KEYS[1]) == -1 then
  redis.call("EXPIRE", KEYS[1], ARGV[1])
end
return count`

/** Deletes every key if each holds its count (ARGV, in order; a missing key holds 0), else none. */
const COMPARE_AND_DELETE = `for i, key in ipairs(KEYS) do
  if tonumber(redis.call("GET", key) or "0") ~= tonumber(ARGV[i]) then return 0 end
end
redis.call("DEL", unpack(KEYS))
return 1`

/** Redis Cluster's refusal of a script whose keys are on several slots. */
const isCrossSlot = (error: unknown) => error instanceof Error && /CROSSSLOT/.test(error.message)

/** A reply as a number: RESP2 gives strings, RESP3 or a type mapping may give numbers or buffers. */
function toCount(reply: unknown): number {
  if (reply === null || reply === undefined) return 0
  const count = Number(typeof reply === "object" ? String(reply) : reply)
  if (!Number.isSafeInteger(count))
    throw new TypeError("Redis answered a counter that is not a number")
  return count
}

/**
 * `reply`, or a `TimeoutError` (the web platform's, as `AbortSignal.timeout`
 * raises) once `ms` have passed. A command left behind in node-redis's offline
 * queue still runs when Redis is back: it counts a refused attempt, which only
 * errs on the strict side (`disableOfflineQueue: true` drops it instead).
 */
async function bounded<T>(reply: Promise<T>, ms: number, command: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DOMException(
            `Redis did not answer ${command} within ${ms} ms (rate-limit store)`,
            "TimeoutError",
          ),
        ),
      ms,
    )
  })
  try {
    return await Promise.race([reply, late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A rate-limit store on a connected node-redis client.
 *
 * Fails closed: a command that fails, or gets no answer within `timeout`,
 * fails the sign-in that needed it (`error=Configuration`, logged), rather
 * than letting it through unlimited or holding it open.
 *
 * @param client a connected node-redis v5 client (or cluster, or pool); the
 *   app owns it: connect it before use, close it at shutdown, and listen for
 *   its `error` events (node-redis emits one each time the connection fails;
 *   with no listener, Node throws it and the process exits)
 * @param options the key prefix, and how long to wait for Redis
 * @example
 * ```ts
 * import { createClient } from "redis"
 * import { RedisRateLimitStore } from "@tessera/redis"
 * import { createRateLimiter } from "@tessera/core/rate-limit"
 *
 * // Without the offline queue, commands fail at once while Redis is unreachable.
 * const redis = createClient({ url: process.env.REDIS_URL, disableOfflineQueue: true })
 * redis.on("error", (error) => console.error("Redis:", error.message))
 * await redis.connect()
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
  const timeout = options.timeout ?? DEFAULT_TIMEOUT
  if (!(Number.isFinite(timeout) && timeout > 0))
    throw new TypeError("RedisRateLimitStore: timeout must be a positive number of milliseconds")
  return {
    async increment(key, ttlSeconds) {
      const ttl = String(Math.max(1, Math.ceil(ttlSeconds)))
      const script = client.eval(INCREMENT, { keys: [prefix + key], arguments: [ttl] })
      return toCount(await bounded(script, timeout, "EVAL"))
    },
    async get(key) {
      return toCount(await bounded(client.get(prefix + key), timeout, "GET"))
    },
    async delete(key) {
      await bounded(client.del(prefix + key), timeout, "DEL")
    },
    async compareAndDelete(expected) {
      const entries = Object.entries(expected)
      if (entries.length === 0) return true
      const run = async (pairs: [string, number][]) => {
        const keys = pairs.map(([key]) => prefix + key)
        const counts = pairs.map(([, count]) => String(count))
        const script = client.eval(COMPARE_AND_DELETE, { keys, arguments: counts })
        return toCount(await bounded(script, timeout, "EVAL")) === 1
      }
      try {
        return await run(entries)
      } catch (error) {
        if (!isCrossSlot(error)) throw error
        // Redis Cluster: compare them all first (so a change already made deletes
        // none), then one key per script. Only a change landing between the two
        // leaves the others deleted; the changed counter itself never is.
        const counts = await Promise.all(
          entries.map(async ([key]) =>
            toCount(await bounded(client.get(prefix + key), timeout, "GET")),
          ),
        )
        if (counts.some((count, i) => count !== entries[i]![1])) return false
        const done = await Promise.all(entries.map((entry) => run([entry])))
        return done.every(Boolean)
      }
    },
  }
}
