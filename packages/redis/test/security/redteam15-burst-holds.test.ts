/**
 * Red team 15, what held: a burst of concurrent guesses through `Auth()` with
 * its limits on a real `redis-server` (`RedisRateLimitStore`), from two app
 * instances (two clients, two configs: two processes behind a load balancer).
 *
 * 60 wrong passwords for one user, sent at once and split between the two
 * instances, against a credentials limit of 5: `authorize` (the password
 * check) runs at most 5 times in all, every other guess is refused as
 * `RateLimited`, none answers anything but a redirect, and the right password
 * sent in the same burst is refused too. The counter Redis holds is the number
 * of attempts counted, with one TTL set at the first (the Lua script's INCR
 * and EXPIRE run as one; concurrent INCRs neither lose counts nor extend it).
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
const MAX = 5
let server: RedisServer
const clients: ReturnType<typeof createClient>[] = []

describe.skipIf(!binary)(
  "red team 15: a concurrent burst against Redis-backed limits (held)",
  () => {
    beforeAll(async () => {
      server = await startRedis({ binary })
      for (let i = 0; i < 2; i++) clients.push(await createClient({ url: server.url }).connect())
    })
    afterAll(async () => {
      for (const client of clients) await client.quit()
      await server?.stop()
    })

    test("60 guesses at once from two instances: at most 5 password checks, the rest refused", async () => {
      const prefix = `rt15-${crypto.randomUUID().slice(0, 8)}:`
      let checks = 0
      const config = (client: ReturnType<typeof createClient>): AuthConfig => ({
        secret: "a-test-secret-that-is-long-enough-0123456789",
        trustHost: true,
        adapter: MemoryAdapter(),
        session: { strategy: "jwt" },
        logger: { error() {}, warn() {}, debug() {} },
        rateLimit: {
          store: RedisRateLimitStore(client, { prefix }),
          credentials: { max: MAX, window: WINDOW },
        },
        providers: [
          Credentials({
            credentials: { username: {}, password: { type: "password" } },
            authorize: ({ username, password }) => {
              checks++
              return username === "ada" && password === "correct horse"
                ? { id: "1", name: "Ada" }
                : null
            },
          }),
        ],
      })
      const apps = clients.map(config)

      /** A prepared sign-in (CSRF token fetched first), to be sent with the others at once. */
      async function prepare(auth: AuthConfig, password: string) {
        const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), auth)
        const cookie = csrf.headers
          .getSetCookie()
          .map((c) => c.split(";")[0])
          .join("; ")
        const { csrfToken } = (await csrf.json()) as { csrfToken: string }
        return () =>
          Auth(
            new Request(`${ORIGIN}/auth/callback/credentials`, {
              method: "POST",
              headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams({ username: "ada", password, csrfToken }),
            }),
            auth,
          )
      }

      const sends = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          prepare(apps[i % 2]!, i === 30 ? "correct horse" : `guess-${i}`),
        ),
      )
      const responses = await Promise.all(sends.map((send) => send()))
      const locations = responses.map((r) => {
        expect(r.status).toBe(302)
        return r.headers.get("location") ?? ""
      })
      expect(checks).toBeLessThanOrEqual(MAX)
      expect(
        locations.filter((l) => l.includes("error=RateLimited")).length,
      ).toBeGreaterThanOrEqual(60 - MAX)
      // Whatever slot the right password got, the limit was spent by guesses first or with it:
      // a sign-in is at most one of the 5 checked, never past them.
      expect(locations.filter((l) => l === ORIGIN).length).toBeLessThanOrEqual(1)
      expect(
        locations.every((l) => l === ORIGIN || /error=(RateLimited|CredentialsSignin)/.test(l)),
      ).toBe(true)

      const keys = (await clients[0]!.keys(`${prefix}credentials:*`)).filter((key) =>
        /^credentials:[0-9a-f]{64}:\d+$/.test(key.slice(prefix.length)),
      )
      expect(keys).toHaveLength(1)
      expect(Number(await clients[0]!.get(keys[0]!))).toBe(60)
      const ttl = await clients[0]!.ttl(keys[0]!)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(2 * WINDOW + 1)
      // And after the burst, the right password is still refused: the lockout holds.
      const after = await (await prepare(apps[0]!, "correct horse"))()
      expect(after.headers.get("location")).toMatch(/error=RateLimited/)
    })
  },
)
