/**
 * The limits of `Auth()` on `RedisRateLimitStore`, against a real
 * `redis-server`: two configurations with their own clients (two processes of
 * one app) count together, for credentials lockouts and sign-in mails alike.
 */
import { createClient } from "redis"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { findRedisServer, MemoryAdapter, startRedis, type RedisServer } from "@tessera/testing"
import { RedisRateLimitStore } from "@tessera/redis"

const binary = findRedisServer()
const ORIGIN = "http://localhost:3000"
let server: RedisServer
const clients: ReturnType<typeof createClient>[] = []

describe.skipIf(!binary)("Auth() rate limits on Redis", () => {
  beforeAll(async () => {
    server = await startRedis({ binary })
    for (let i = 0; i < 2; i++) clients.push(await createClient({ url: server.url }).connect())
  })
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.quit()))
    await server?.stop()
  })

  function processConfig(index: number, prefix: string, mailed: string[]): AuthConfig {
    return {
      secret: "a-test-secret-that-is-long-enough-0123456789",
      trustHost: true,
      adapter: MemoryAdapter(),
      session: { strategy: "jwt" },
      logger: { error() {}, warn() {} },
      rateLimit: {
        store: RedisRateLimitStore(clients[index]!, { prefix }),
        credentials: { max: 3, window: 900 },
        email: { max: 2, window: 3600 },
      },
      providers: [
        Credentials({
          credentials: { username: {}, password: { type: "password" } },
          authorize: ({ username, password }) =>
            username === "ada" && password === "correct horse" ? { id: "1", name: "Ada" } : null,
        }),
        {
          id: "email",
          type: "email",
          name: "Email",
          sendVerificationRequest: ({ identifier }: { identifier: string }) =>
            void mailed.push(identifier),
        } as never,
      ],
    }
  }

  async function post(config: AuthConfig, path: string, fields: Record<string, string>) {
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ")
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const response = await Auth(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...fields, csrfToken }),
      }),
      config,
    )
    return response.headers.get("location")
  }

  test("a credentials lockout spans processes and holds against the right password", async () => {
    const prefix = `auth-${crypto.randomUUID().slice(0, 8)}:`
    const [one, two] = [processConfig(0, prefix, []), processConfig(1, prefix, [])]
    for (const [config, password] of [
      [one, "a"],
      [two, "b"],
      [one, "c"],
    ] as const)
      await post(config, "/auth/callback/credentials", { username: "ada", password })
    for (const config of [one, two]) {
      expect(
        await post(config, "/auth/callback/credentials", {
          username: "ada",
          password: "correct horse",
        }),
      ).toBe(`${ORIGIN}/auth/signin?error=RateLimited`)
    }
    const keys = await clients[0]!.keys(`${prefix}*`)
    expect(keys.length).toBeGreaterThan(0)
    // The key's own hex (random prefix, SHA-256 of the identifier) may hold "ada" by chance.
    for (const key of keys) expect(withoutHex(key.slice(prefix.length))).not.toContain("ada")
  })

  test("held: identifiers holding key separators, a hash tag or 60 KB never shape a key", async () => {
    // The attack: a username that is another user's key plus a separator (`ada:`, `ada|x`,
    // `a\nda`), or a Redis Cluster hash tag (`{ada}`) to pin keys into one slot, failed past the
    // limit, to lock out Ada or split a success's keys; and one near the 64 KB body limit, for
    // an unbounded key or a store error. The limiter keys by HMAC: none of it reaches Redis.
    const prefix = `keys-${crypto.randomUUID().slice(0, 8)}:`
    const config = processConfig(0, prefix, [])
    const hostile = ["ada:", ":ada", "ada|x", "a\nda", "{ada}", "{}ada", "x".repeat(60_000)]
    for (const username of hostile)
      for (let i = 0; i < 4; i++)
        expect(
          await post(config, "/auth/callback/credentials", { username, password: "wrong" }),
        ).toMatch(/error=(CredentialsSignin|RateLimited)/)
    expect(
      await post(config, "/auth/callback/credentials", {
        username: "ada",
        password: "correct horse",
      }),
    ).toBe(ORIGIN)
    const keys = await clients[0]!.keys(`${prefix}*`)
    expect(keys.length).toBeGreaterThan(0)
    const shape = /^credentials(Ip)?:(ok:|reset:|as:)?[0-9a-f]{64}:\d+$/
    for (const key of keys) expect(key.slice(prefix.length)).toMatch(shape)
  })

  test("sign-in mails per address, across processes", async () => {
    const prefix = `mail-${crypto.randomUUID().slice(0, 8)}:`
    const mailed: string[] = []
    const [one, two] = [processConfig(0, prefix, mailed), processConfig(1, prefix, mailed)]
    expect(await post(one, "/auth/signin/email", { email: "ada@example.com" })).toContain(
      "/auth/verify-request",
    )
    expect(await post(two, "/auth/signin/email", { email: "ada@example.com" })).toContain(
      "/auth/verify-request",
    )
    expect(await post(one, "/auth/signin/email", { email: "ada@example.com" })).toBe(
      `${ORIGIN}/auth/signin?error=RateLimited`,
    )
    expect(mailed).toEqual(["ada@example.com", "ada@example.com"])
  })
})

/** A key with its 64-digit hex hashes taken out, so only text that could be a raw identifier is left. */
function withoutHex(key: string): string {
  return key.replace(/[0-9a-f]{64}/g, "<hash>")
}
