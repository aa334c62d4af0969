/**
 * `RedisRateLimitStore` against a real `redis-server` (Debian's package,
 * started on 127.0.0.1 at a free port, persistence off): the conformance suite,
 * two processes included, and what is particular to Redis (the prefix, TTLs,
 * RESP3 replies). Skipped, saying so, where redis-server is not installed.
 */
import { createClient } from "redis"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { createRateLimiter } from "@tessera/core/rate-limit"
import { findRedisServer, startRedis, type RedisServer } from "@tessera/testing"
import { runRateLimitStoreTests } from "@tessera/testing/suites"
import { RedisRateLimitStore } from "@tessera/redis"

const binary = findRedisServer()
if (!binary)
  console.warn(
    "[redis] redis-server not found (apt-get install redis-server): the Redis store tests did NOT run",
  )

let server: RedisServer
let client: ReturnType<typeof createClient>
const prefix = `test-${crypto.randomUUID().slice(0, 8)}:`

describe.skipIf(!binary)("RedisRateLimitStore", () => {
  beforeAll(async () => {
    server = await startRedis({ binary })
    client = await createClient({ url: server.url }).connect()
  })

  afterAll(async () => {
    await client?.quit()
    await server?.stop()
  })

  runRateLimitStoreTests({
    name: "RedisRateLimitStore conformance",
    createStore: () => RedisRateLimitStore(client, { prefix }),
    ttl: async (key) => {
      const ttl = await client.ttl(prefix + key)
      return ttl < 0 ? null : ttl
    },
    crossProcess: {
      worker: new URL("./rate-limit-worker.mjs", import.meta.url),
      env: () => ({ TESSERA_REDIS_URL: server.url, TESSERA_REDIS_PREFIX: prefix }),
      requires: [
        new URL("../dist/index.js", import.meta.url),
        new URL("../../testing/dist/rate-limit-store-worker.js", import.meta.url),
      ],
    },
  })

  test("keys carry the prefix, and the default prefix is tessera:rate-limit:", async () => {
    await RedisRateLimitStore(client, { prefix }).increment("prefixed", 60)
    expect(await client.get(`${prefix}prefixed`)).toBe("1")
    await RedisRateLimitStore(client).increment("default", 60)
    expect(await client.get("tessera:rate-limit:default")).toBe("1")
    await client.del("tessera:rate-limit:default")
  })

  test("a counter left without a TTL gets one on its next increment", async () => {
    const store = RedisRateLimitStore(client, { prefix })
    await client.set(`${prefix}no-ttl`, "4")
    expect(await client.ttl(`${prefix}no-ttl`)).toBe(-1)
    expect(await store.increment("no-ttl", 30)).toBe(5)
    const ttl = await client.ttl(`${prefix}no-ttl`)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(30)
  })

  test("a timeout that is not a positive number of milliseconds is refused", () => {
    for (const timeout of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => RedisRateLimitStore(client, { timeout })).toThrow(TypeError)
    expect(() => RedisRateLimitStore(client, { timeout: 250 })).not.toThrow()
  })

  test("works with a RESP3 client", async () => {
    const resp3 = await createClient({ url: server.url, RESP: 3 }).connect()
    try {
      const store = RedisRateLimitStore(resp3, { prefix })
      expect(await store.increment("resp3", 60)).toBe(1)
      expect(await store.increment("resp3", 60)).toBe(2)
      expect(await store.get("resp3")).toBe(2)
      await store.delete("resp3")
      expect(await store.get("resp3")).toBe(0)
    } finally {
      await resp3.quit()
    }
  })

  test("a limiter over Redis refuses after max hits, for every process using the server", async () => {
    const rules = { signin: { max: 3, window: 60 } }
    const secret = "redis-limiter-secret-0123456789abcdef"
    const here = createRateLimiter({
      secret,
      rules,
      store: RedisRateLimitStore(client, { prefix }),
    })
    const other = await createClient({ url: server.url }).connect()
    try {
      // A second connection stands in for another server behind the load balancer.
      const there = createRateLimiter({
        secret,
        rules,
        store: RedisRateLimitStore(other, { prefix }),
      })
      await here.hit("signin", "ada@example.com")
      await there.hit("signin", "ada@example.com")
      expect(await here.hit("signin", "ada@example.com")).toMatchObject({
        limited: false,
        remaining: 0,
      })
      expect((await there.check("signin", "ada@example.com")).limited).toBe(true)
      const keys = await client.keys(`${prefix}signin:*`)
      expect(keys).toHaveLength(1)
      expect(keys[0]).toMatch(new RegExp(`^${prefix}signin:[0-9a-f]{64}:\\d+$`))
    } finally {
      await other.quit()
    }
  })
})
