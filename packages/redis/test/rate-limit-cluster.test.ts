/**
 * `RedisRateLimitStore` on a real Redis Cluster (three `redis-server`s in cluster mode on
 * 127.0.0.1, the slots split between them), through node-redis's `createCluster()`: the
 * conformance suite. The keys a success clears (`compareAndDelete`) hash to different slots,
 * which Redis refuses in one script (CROSSSLOT): the store compares them all, then deletes
 * each with a script of its own. Skipped, saying so, where redis-server is not installed.
 */
import { createClient, createCluster } from "redis"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { findRedisServer, startRedis, type RedisServer } from "@tessera/testing"
import { runRateLimitStoreTests } from "@tessera/testing/suites"
import { RedisRateLimitStore } from "@tessera/redis"
import { makeConfig, ORIGIN, signIn } from "../../core/test/harness/index.js"

const binary = findRedisServer()
if (!binary)
  console.warn(
    "[redis] redis-server not found (apt-get install redis-server): the Redis Cluster tests did NOT run",
  )

const SLOTS = 16384
let nodes: RedisServer[] = []
let cluster: ReturnType<typeof createCluster>

/** Resolves once `client`'s node reports the cluster up with all three nodes (30 s at most). */
async function clusterReady(client: ReturnType<typeof createClient>): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    const info = String(await client.sendCommand(["CLUSTER", "INFO"]))
    if (/cluster_state:ok/.test(info) && /cluster_known_nodes:3/.test(info)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error("The Redis Cluster did not come up")
}

/** Three empty nodes made one cluster: each takes a third of the slots, and they meet. */
async function startCluster(): Promise<void> {
  nodes = await Promise.all(
    [0, 1, 2].map(() => startRedis({ binary, args: ["--cluster-enabled", "yes"] })),
  )
  const clients = await Promise.all(nodes.map((node) => createClient({ url: node.url }).connect()))
  try {
    for (const [i, client] of clients.entries()) {
      const first = Math.floor((i * SLOTS) / 3)
      const last = Math.floor(((i + 1) * SLOTS) / 3) - 1
      await client.sendCommand(["CLUSTER", "ADDSLOTSRANGE", String(first), String(last)])
      if (i > 0)
        await clients[0]!.sendCommand(["CLUSTER", "MEET", "127.0.0.1", String(nodes[i]!.port)])
    }
    // The nodes learn of each other by gossip: wait until each sees the whole cluster.
    for (const client of clients) await clusterReady(client)
  } finally {
    await Promise.all(clients.map((client) => client.quit()))
  }
}

describe.skipIf(!binary)("RedisRateLimitStore on Redis Cluster", () => {
  beforeAll(async () => {
    await startCluster()
    cluster = createCluster({ rootNodes: [{ url: nodes[0]!.url }] })
    cluster.on("error", () => {})
    await cluster.connect()
  }, 60_000)

  afterAll(async () => {
    await cluster?.quit()
    await Promise.all(nodes.map((node) => node.stop()))
  })

  runRateLimitStoreTests({
    name: "RedisRateLimitStore conformance (Redis Cluster)",
    createStore: () => RedisRateLimitStore(cluster, { prefix: "cluster:" }),
    ttl: async (key) => {
      const ttl = await cluster.ttl(`cluster:${key}`)
      return ttl < 0 ? null : ttl
    },
    crossProcess: false,
  })

  test("held: Auth() on the cluster, a success clears across slots and hash-tag names pin nothing", async () => {
    // The attack: usernames holding a hash tag (`{ada}`, `{}`), to force keys into one slot
    // or split a success's compare-and-delete (CROSSSLOT) into a 500 or a counter that stays.
    const { config, log } = makeConfig({
      rateLimit: {
        store: RedisRateLimitStore(cluster, { prefix: `auth-${crypto.randomUUID()}:` }),
        credentials: { max: 3, window: 900 },
      },
    })
    const failed = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`
    for (const username of ["{ada}", "{}ada", "ada{", "{ada}", "{}ada", "ada{"])
      expect(
        (await signIn(config, { username, password: "x" })).response.headers.get("location"),
      ).toMatch(/error=(CredentialsSignin|RateLimited)/)
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++)
        expect(
          (await signIn(config, { username: "ada", password: "x" })).response.headers.get(
            "location",
          ),
        ).toBe(failed)
      // 2 + 2 failures over a limit of 3: the second round passes only if the first success cleared them.
      const { response } = await signIn(config)
      expect(response.headers.get("location")).toBe(ORIGIN)
    }
    expect(log.errors).toEqual([])
  })
})
