/**
 * Attacker-chosen identifiers against `RedisRateLimitStore`, through `Auth()`
 * and a real `redis-server`. The identifiers a limit counts under (a
 * credentials username, an e-mail address, an `X-Forwarded-For` entry) are
 * the attacker's to write, so they try:
 *
 * - key injection: Redis glob characters (`*`, `?`, `[...]`), the store's own
 *   separator (`:`), Cluster hash tags (`{...}`), CR/LF, NUL, another key's
 *   full name: none reaches a key, which is always
 *   `<prefix><rule>:<64 hex>:<window>` (or `<rule>:as:<64 hex>:<window>`, failures
 *   per exact spelling);
 * - colliding two users' counters: `ada*` or `ada:1` locked does not lock
 *   `ada`;
 * - unbounded growth: a 60 KB identifier makes a key of fixed length, each
 *   new identifier two keys per rule at most, and every key has a TTL.
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
let server: RedisServer
let client: ReturnType<typeof createClient>

const HOSTILE = [
  "*",
  "ada*",
  "a?a",
  "[a-z]*",
  "ada:1",
  "credentials:*",
  "{ada}",
  "ada\r\nFLUSHALL",
  "ada\u0000",
  "tessera:rate-limit:*",
  "x".repeat(60_000),
]

describe.skipIf(!binary)("attacker-chosen identifiers on Redis", () => {
  beforeAll(async () => {
    server = await startRedis({ binary })
    client = await createClient({ url: server.url }).connect()
  })
  afterAll(async () => {
    await client?.quit()
    await server?.stop()
  })

  function config(prefix: string): AuthConfig {
    return {
      secret: "a-test-secret-that-is-long-enough-0123456789",
      trustHost: true,
      adapter: MemoryAdapter(),
      session: { strategy: "jwt" },
      logger: { error() {}, warn() {} },
      rateLimit: {
        store: RedisRateLimitStore(client, { prefix }),
        ipHeader: "x-forwarded-for",
        credentials: { max: 3, window: WINDOW },
        credentialsIp: { max: 1000, window: WINDOW },
      },
      providers: [
        Credentials({
          credentials: { username: {}, password: { type: "password" } },
          authorize: ({ username, password }) =>
            username === "ada" && password === "correct horse" ? { id: "1", name: "Ada" } : null,
        }),
      ],
    }
  }

  /** A credentials sign-in from `ip`; the `Location` it answers. */
  async function signIn(auth: AuthConfig, username: string, password: string, ip = "203.0.113.7") {
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), auth)
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ")
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: {
          cookie,
          "content-type": "application/x-www-form-urlencoded",
          "x-forwarded-for": ip,
        },
        body: new URLSearchParams({ username, password, csrfToken }),
      }),
      auth,
    )
    return response.headers.get("location") ?? ""
  }

  const keysOf = (prefix: string) => client.keys(`${prefix}*`)

  test("hostile identifiers and addresses make only fixed-shape keys, each with a TTL", async () => {
    const prefix = `rt5-${crypto.randomUUID().slice(0, 8)}:`
    const auth = config(prefix)
    const before = await client.dbSize()
    for (const name of HOSTILE) {
      expect(
        await signIn(
          auth,
          name,
          "wrong",
          `evil*, ${name.replace(/[^\x20-\x7e]/g, "").slice(0, 40)}, 198.51.100.9`,
        ),
      ).toMatch(/error=CredentialsSignin/)
    }
    const keys = await keysOf(prefix)
    // Per identifier (all distinct) one count and one of failures as spelled, and one
    // for the one client address.
    expect(keys).toHaveLength(2 * HOSTILE.length + 1)
    expect(await client.dbSize()).toBe(before + 2 * HOSTILE.length + 1)
    for (const key of keys) {
      expect(key.slice(prefix.length)).toMatch(
        /^(credentials|credentialsIp):(as:)?[0-9a-f]{64}:\d+$/,
      )
      const ttl = await client.ttl(key)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(2 * WINDOW + 1)
    }
  })

  test("locking look-alike identifiers does not lock the user's own", async () => {
    const prefix = `rt5-${crypto.randomUUID().slice(0, 8)}:`
    const auth = config(prefix)
    for (const name of ["ada*", "ada:1", "{ada}", "ada\u0000", "*", "[a]da"]) {
      for (let i = 0; i < 4; i++) await signIn(auth, name, "guess")
      expect(await signIn(auth, name, "guess")).toMatch(/error=RateLimited/)
    }
    // Ada's own counter was never touched: her password works.
    expect(await signIn(auth, "ada", "correct horse")).toBe(`${ORIGIN}`)
  })

  test("locking ada locks ADA and ' ada ' too (one person, one counter), and nothing else", async () => {
    const prefix = `rt5-${crypto.randomUUID().slice(0, 8)}:`
    const auth = config(prefix)
    for (let i = 0; i < 3; i++) await signIn(auth, ["ada", "ADA", " ada "][i]!, "guess")
    expect(await signIn(auth, "ada", "correct horse")).toMatch(/error=RateLimited/)
    expect(await signIn(auth, "ada*", "guess")).toMatch(/error=CredentialsSignin/)
  })
})
