/**
 * Red team, round 22: attacker-chosen identifiers as rate-limit keys, on the default memory
 * store. Usernames that are Ada's plus a key separator (`:`, `|`, a newline), or a Redis
 * Cluster hash tag, failed far past the limit, to make their counters Ada's: held, since the
 * limiter keys by an HMAC of the subject (the Redis and Redis Cluster tests in
 * packages/redis/test check the keys' shape too). Pinned.
 */
import { expect, test } from "vitest"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { makeConfig, ORIGIN, signIn } from "../harness/index.js"

test("held: separator and hash-tag look-alikes of a username never count against it", async () => {
  const { config } = makeConfig({
    rateLimit: { store: new MemoryRateLimitStore(), credentials: { max: 2, window: 900 } },
  })
  for (const username of ["ada:", ":ada", "ada|", "ada\nx", "{ada}", "ada:0", "ada:1"])
    for (let i = 0; i < 3; i++) {
      const { response } = await signIn(config, { username, password: "x" })
      expect(response.headers.get("location")).toMatch(/error=(CredentialsSignin|RateLimited)/)
    }
  // Each look-alike is locked out on its own...
  const { response: locked } = await signIn(config, { username: "ada:", password: "x" })
  expect(locked.headers.get("location")).toContain("error=RateLimited")
  // ...and Ada is not.
  const { response } = await signIn(config)
  expect(response.headers.get("location")).toBe(ORIGIN)
})
