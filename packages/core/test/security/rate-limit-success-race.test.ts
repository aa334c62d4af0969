/**
 * A correct password clears the sign-in failures of its identifier when every failure
 * counted was made under the spelling that just succeeded. It read the counters, then
 * deleted them in a second step: a guess counted in between (an attacker racing the
 * user's own sign-in) was deleted with them, a free guess per sign-in of the user. Now the
 * store deletes them only if they still hold what was read (`compareAndDelete`), in one
 * atomic step, and the guess stays counted. The same for a right e-mail code, which resets
 * its address's count (a rule without spellings): it deleted that count blindly.
 *
 * Through `Auth()` and the credentials and e-mail code providers, on each real store: memory, SQLite in a
 * file, PostgreSQL, and redis-server. The store is wrapped only to run the attacker's whole
 * attempt at the exact point of the race: after the success read the counters, before it
 * cleared them.
 */
import { createClient } from "redis"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import { MemoryRateLimitStore, type RateLimitStore } from "@tessera/core/rate-limit"
import { RedisRateLimitStore } from "@tessera/redis"
import type { SqlAdapterInstance } from "@tessera/sql"
import { findRedisServer, startRedis, type RedisServer } from "@tessera/testing"
import { memoryBackend, PostgresFixture, sqliteBackend } from "../harness/backends.js"
import { csrfToken, makeConfig, ORIGIN, post, setsSession, signIn } from "../harness/index.js"

const rateLimitedPage = `${ORIGIN}/auth/signin?error=RateLimited`
const wrongPasswordPage = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`

const postgres = new PostgresFixture()
let redis: RedisServer | undefined
let client: ReturnType<typeof createClient> | undefined
beforeAll(async () => {
  await postgres.start()
  const binary = findRedisServer()
  if (!binary) return
  redis = await startRedis({ binary })
  client = await createClient({ url: redis.url }).connect()
}, 60_000)
afterAll(async () => {
  await client?.quit()
  await redis?.stop()
  await postgres.stop()
})

/**
 * `store`, running `during` once, when the counters are about to be cleared after they were
 * read: before the first `compareAndDelete` or `delete`. Has `compareAndDelete` only where
 * `store` has it.
 */
function racing(store: RateLimitStore, during: () => Promise<void>): RateLimitStore {
  let raced = false
  const race = async () => {
    if (raced) return
    raced = true
    await during()
  }
  const wrapped: RateLimitStore = {
    increment: (key, ttl) => store.increment(key, ttl),
    get: (key) => store.get(key),
    delete: async (key) => {
      await race()
      return store.delete(key)
    },
  }
  if (store.compareAndDelete) {
    const compareAndDelete = store.compareAndDelete.bind(store)
    wrapped.compareAndDelete = async (expected) => {
      await race()
      return compareAndDelete(expected)
    }
  }
  return wrapped
}

type Opened = { store: RateLimitStore; close(): Promise<void> }

const stores: [string, () => Promise<Opened>][] = [
  ["memory", async () => ({ store: new MemoryRateLimitStore(), close: async () => {} })],
  [
    "sqlite",
    async () => {
      const backend = await sqliteBackend()
      const adapter = backend.adapter as SqlAdapterInstance
      return { store: adapter.rateLimitStore(), close: () => backend.close() }
    },
  ],
  [
    "postgres",
    async () => {
      const backend = await postgres.backend()
      return { store: backend.sql.rateLimitStore(), close: () => backend.close() }
    },
  ],
  [
    "redis",
    async () => {
      const prefix = `race-${crypto.randomUUID().slice(0, 8)}:`
      return { store: RedisRateLimitStore(client!, { prefix }), close: async () => {} }
    },
  ],
]

describe.each(stores)("a guess racing the user's successful sign-in, on %s", (name, open) => {
  test.skipIf(name === "redis" && !findRedisServer())(
    "stays counted: the lock comes one guess sooner",
    async () => {
      const { store, close } = await open()
      try {
        const guess = () => signIn(config, { username: "ada", password: "guess" })
        const config: AuthConfig = makeConfig({
          session: { strategy: "jwt" },
          rateLimit: {
            store: racing(store, async () => {
              // The attacker's whole attempt, between the success's read and its clear.
              const { response } = await guess()
              expect(response.headers.get("location")).toBe(wrongPasswordPage)
            }),
            credentials: { max: 2, window: 900 },
          },
        }).config

        const { response } = await signIn(config)
        expect(setsSession(response)).toBe(true)

        // The raced guess counts: with the next one the limit (2) is reached, and the
        // one after is refused. Deleted, it would have left room for one guess more.
        expect((await guess()).response.headers.get("location")).toBe(wrongPasswordPage)
        expect((await guess()).response.headers.get("location")).toBe(rateLimitedPage)
      } finally {
        await close()
      }
    },
  )
})

/**
 * The same race on a rule without spellings: wrong e-mail codes per address (`emailCode`). The
 * owner's right code cleared the address's count by deleting it blindly, and an attacker's
 * wrong code counted while it did was deleted with it.
 */
describe.each(stores)("a code guess racing the owner's right e-mail code, on %s", (name, open) => {
  test.skipIf(name === "redis" && !findRedisServer())(
    "stays counted: the lock comes one guess sooner",
    async () => {
      const { store, close } = await open()
      try {
        const mailed: string[] = []
        const victim = "victim@example.com"
        const enter = async (code: string) => {
          const fields = { email: victim, code }
          const { response } = await signIn(config, fields, { providerId: "email" })
          return {
            location: response.headers.get("location") ?? "",
            session: setsSession(response),
          }
        }
        const config: AuthConfig = makeConfig({
          adapter: memoryBackend().adapter,
          twoFactor: false,
          providers: [
            Email({
              method: "code",
              sendVerificationRequest: async (p) => void mailed.push(p.code!),
            }),
          ],
          rateLimit: {
            email: false,
            emailCode: { max: 2, window: 900 },
            store: racing(store, async () => {
              // The attacker's wrong code, between the success's read and its clear.
              expect((await enter("00000000")).location).toContain("error=Verification")
            }),
          },
        }).config
        const { token, jar } = await csrfToken(config)
        await Auth(post("/auth/signin/email", { email: victim, csrfToken: token }, { jar }), config)

        expect((await enter(mailed.at(-1)!)).session).toBe(true)

        // The raced guess counts: with the next one the limit (2) is reached, and the one
        // after is refused. Deleted, it would have left room for one guess more.
        expect((await enter("00000001")).location).toContain("error=Verification")
        expect((await enter("00000002")).location).toContain("error=RateLimited")
      } finally {
        await close()
      }
    },
  )
})

describe("a custom store without compareAndDelete (written before it)", () => {
  test("still works, clearing in two steps, and Auth() warns once that it is not atomic", async () => {
    const memory = new MemoryRateLimitStore()
    const store: RateLimitStore = {
      increment: (key, ttl) => memory.increment(key, ttl),
      get: (key) => memory.get(key),
      delete: (key) => memory.delete(key),
    }
    const { config, log } = makeConfig({
      session: { strategy: "jwt" },
      rateLimit: { store, credentials: { max: 2, window: 900 } },
    })
    const guess = () => signIn(config, { username: "ada", password: "guess" })
    expect((await guess()).response.headers.get("location")).toBe(wrongPasswordPage)
    expect(setsSession((await signIn(config)).response)).toBe(true)
    // The user's own failure was cleared by the success: two guesses before the lock.
    expect((await guess()).response.headers.get("location")).toBe(wrongPasswordPage)
    expect((await guess()).response.headers.get("location")).toBe(wrongPasswordPage)
    expect((await guess()).response.headers.get("location")).toBe(rateLimitedPage)
    expect(log.warnings.filter((w) => w === "rate-limit-store-not-atomic")).toHaveLength(1)
  })

  test("the stores Tessera ships are not warned about", async () => {
    const { config, log } = makeConfig({ rateLimit: { store: new MemoryRateLimitStore() } })
    await signIn(config)
    expect(log.warnings).not.toContain("rate-limit-store-not-atomic")
  })
})
