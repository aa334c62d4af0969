// The second process of the rate-limit store suite's two-process test: its own
// client on the Redis server the test process uses, through the built package.
import { createClient } from "redis"
import { RedisRateLimitStore } from "@tessera/redis"
import { runRateLimitStoreWorker } from "@tessera/testing/rate-limit-store-worker"

await runRateLimitStoreWorker(async () => {
  const client = await createClient({ url: process.env.TESSERA_REDIS_URL }).connect()
  const store = RedisRateLimitStore(client, { prefix: process.env.TESSERA_REDIS_PREFIX })
  return { store, close: () => client.quit().then(() => {}) }
})
