/**
 * Red team, round 7: the Redis rate-limit store's counters against an attacker
 * who wants them gone or never gone, through `Auth()` and a real `redis-server`:
 *
 * - made permanent: every key Tessera writes has a TTL of at most two windows
 *   (+1 s), and hammering a counter does not push its TTL out;
 * - reset: a look-alike account of the attacker's own (`Ａdá` where the app's
 *   database tells it from `ada`) signs in again and again between guesses at
 *   Ada's password. A success takes back its own attempt and clears the
 *   shared count only when every failure counted was its own spelling's, so
 *   the lockout engages at the limit (this failed before round 7: every round
 *   cleared it; round 7 still let one clear per window through);
 * - key injection by `:`, `*`, newlines (pinned in redteam5-keys): the new
 *   key kinds (a success's marker, failures per spelling) have the same fixed shape.
 */
import { createClient } from "redis"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { findRedisServer, MemoryAdapter, startRedis, type RedisServer } from "@tessera/testing"
import { RedisRateLimitStore } from "@tessera/redis"

const binary = findRedisServer()
const ORIGIN = "http://localhost:3000"
const WINDOW = 900
const USERS: Record<string, string> = { ada: "victim's secret", Ａdá: "attacker's own" }
let server: RedisServer
let client: ReturnType<typeof createClient>

describe.skipIf(!binary)("red team 7: Redis counters cannot be made permanent or reset", () => {
  beforeAll(async () => {
    server = await startRedis({ binary })
    client = await createClient({ url: server.url }).connect()
  })
  afterAll(async () => {
    await client?.quit()
    await server?.stop()
  })

  function config(prefix: string, clock: { now: number }): AuthConfig {
    return {
      secret: "a-test-secret-that-is-long-enough-0123456789",
      trustHost: true,
      adapter: MemoryAdapter(),
      session: { strategy: "jwt" },
      logger: { error() {}, warn() {} },
      rateLimit: {
        store: RedisRateLimitStore(client, { prefix }),
        now: () => clock.now,
        credentials: { max: 5, window: WINDOW },
      },
      providers: [
        Credentials({
          credentials: { username: {}, password: { type: "password" } },
          // An exact lookup: `ada` and the attacker's look-alike are two users.
          authorize: ({ username, password }) =>
            typeof username === "string" && USERS[username] === password
              ? { id: username, name: username }
              : null,
        }),
      ],
    }
  }

  async function signIn(auth: AuthConfig, username: string, password: string) {
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), auth)
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ")
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username, password, csrfToken }),
      }),
      auth,
    )
    return response.headers.get("location") ?? ""
  }

  const fresh = () => `rt7-${crypto.randomUUID().slice(0, 8)}:`

  test("hammering a counter neither makes it permanent nor pushes its TTL out", async () => {
    const prefix = fresh()
    const clock = { now: Date.parse("2030-01-01T00:00:00Z") }
    const auth = config(prefix, clock)
    await signIn(auth, "ada", "guess")
    // The identifier's count (not its record of failures as spelled, `credentials:as:`).
    const key = (await client.keys(`${prefix}*`)).find((k) => !k.includes(":as:"))
    const first = await client.ttl(key!)
    expect(first).toBeGreaterThan(0)
    expect(first).toBeLessThanOrEqual(2 * WINDOW + 1)
    // Someone removed the TTL (a PERSIST by hand): the next hit puts one back.
    await client.persist(key!)
    for (let i = 0; i < 8; i++) await signIn(auth, "ada\n", "guess")
    const later = await client.ttl(key!)
    expect(later).toBeGreaterThan(0)
    expect(later).toBeLessThanOrEqual(2 * WINDOW + 1)
    for (const k of await client.keys(`${prefix}*`)) expect(await client.ttl(k)).toBeGreaterThan(0)
  })

  test("a look-alike account's successes never clear the shared count", async () => {
    const prefix = fresh()
    const clock = { now: Date.parse("2030-01-01T00:00:00Z") }
    const auth = config(prefix, clock)
    let guessed = 0
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 4; i++)
        if ((await signIn(auth, "ada", `guess ${round}-${i}`)).includes("CredentialsSignin"))
          guessed++
      // Signed in while the count has room (it is the attacker's own password): it
      // takes back its own attempt, and clears none of the guesses made as `ada`.
      await signIn(auth, "Ａdá", "attacker's own")
    }
    // max 5 per window, and nothing cleared.
    expect(guessed).toBeLessThanOrEqual(5)
    expect(await signIn(auth, "ada", "victim's secret")).toMatch(/error=RateLimited/)
    const keys = await client.keys(`${prefix}*`)
    for (const key of keys) {
      expect(key.slice(prefix.length)).toMatch(/^credentials:(ok:|reset:|as:)?[0-9a-f]{64}:\d+$/)
      const ttl = await client.ttl(key)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(2 * WINDOW + 1)
    }

    // Two windows on, the guesses have expired: Ada's password works again.
    clock.now += 2 * WINDOW * 1000
    expect(await signIn(auth, "ada", "victim's secret")).toBe(ORIGIN)
  })
})
