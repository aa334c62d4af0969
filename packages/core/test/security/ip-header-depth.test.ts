/**
 * Per-IP limits behind a chain of proxies. A CDN and then a load balancer both
 * append to `X-Forwarded-For`: the last entry is the CDN's own address, the
 * same for every client, so keying by it puts everyone in one count, and one
 * client who uses up `credentialsIp` locks every other client out. The client's
 * address is the entry the outermost trusted proxy appended, the second from
 * the right (`rateLimit.ipHeaderDepth: 2`); everything left of it is the
 * client's own to write. Driven through `Auth()` with the header as the chain
 * delivers it: what the client sent, then the CDN's entry (the client's
 * address), then the load balancer's (the CDN's address).
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { csrfToken, get, makeConfig, ORIGIN, post, setsSession } from "../harness/index.js"

const USERS: Record<string, string> = { ada: "correct horse", grace: "battery staple" }

const provider = () =>
  Credentials({
    credentials: { username: {}, password: { type: "password" } },
    authorize: ({ username, password }) =>
      typeof username === "string" && USERS[username] === password
        ? { id: username, name: username }
        : null,
  })

/** The CDN's address, as the load balancer appends it to every request. */
const CDN = "198.51.100.7"
const ATTACKER = "203.0.113.66"
const VICTIM = "192.0.2.10"

/** `X-Forwarded-For` as the app gets it: what the client sent, plus one entry per proxy. */
function throughChain(client: string, sent?: string): string {
  return [...(sent === undefined ? [] : [sent]), client, CDN].join(", ")
}

function limited(rateLimit: Record<string, unknown>) {
  const clock = { now: Date.parse("2030-01-01T00:00:00Z") }
  return makeConfig({
    providers: [provider()],
    rateLimit: {
      store: new MemoryRateLimitStore({ now: () => clock.now }),
      now: () => clock.now,
      ipHeader: "x-forwarded-for",
      // Only the per-IP limit: a lockout here is the IP limit's doing.
      credentials: false,
      credentialsIp: { max: 5, window: 900 },
      ...rateLimit,
    },
  })
}

async function attempt(config: AuthConfig, username: string, password: string, xff?: string) {
  const { token, jar } = await csrfToken(config)
  const headers: Record<string, string> = xff === undefined ? {} : { "x-forwarded-for": xff }
  const response = await Auth(
    post("/auth/callback/credentials", { username, password, csrfToken: token }, { jar, headers }),
    config,
  )
  return { location: response.headers.get("location"), signedIn: setsSession(response) }
}

const rateLimitedPage = `${ORIGIN}/auth/signin?error=RateLimited`

describe("rateLimit.ipHeaderDepth: two proxies append to X-Forwarded-For", () => {
  test("one client using up credentialsIp does not lock out another client behind the same CDN", async () => {
    const { config } = limited({ ipHeaderDepth: 2 })
    for (let i = 0; i < 5; i++) await attempt(config, `user${i}`, "wrong", throughChain(ATTACKER))
    expect(
      (await attempt(config, "grace", "battery staple", throughChain(ATTACKER))).location,
    ).toBe(rateLimitedPage)
    // The victim comes through the same CDN: their count is their own.
    const victim = await attempt(config, "grace", "battery staple", throughChain(VICTIM))
    expect(victim.signedIn).toBe(true)
  })

  test("rotating the entries left of the trusted one gets the attacker no fresh count", async () => {
    const { config } = limited({ ipHeaderDepth: 2 })
    const forged = ["10.0.0.1", `${VICTIM}`, "10.0.0.2, 10.0.0.3", `1.1.1.1, ${CDN}`, "2001:db8::1"]
    for (const sent of forged)
      expect(
        (await attempt(config, "ada", "wrong", throughChain(ATTACKER, sent))).location,
      ).not.toBe(rateLimitedPage)
    for (const sent of ["10.9.9.9", "192.0.2.11, 192.0.2.12", VICTIM]) {
      const result = await attempt(config, "grace", "battery staple", throughChain(ATTACKER, sent))
      expect(result.location).toBe(rateLimitedPage)
    }
    // Naming the victim in the forged part charged nothing to the victim.
    expect((await attempt(config, "grace", "battery staple", throughChain(VICTIM))).signedIn).toBe(
      true,
    )
  })

  test("a short, empty or malformed header sent through the chain still counts under the client's address", async () => {
    const { config } = limited({ ipHeaderDepth: 2 })
    // What the client sends is followed by the proxies' two entries, whatever it is.
    const sent = [undefined, "", ",", " , , ", "garbage", "[::1", `${"1.2.3.4,".repeat(200)}`]
    for (const value of sent.slice(0, 5))
      await attempt(config, `user-${value}`, "wrong", throughChain(ATTACKER, value))
    for (const value of sent) {
      const result = await attempt(config, "ada", "correct horse", throughChain(ATTACKER, value))
      expect(result.location).toBe(rateLimitedPage)
    }
    expect((await attempt(config, "ada", "correct horse", throughChain(VICTIM))).signedIn).toBe(
      true,
    )
  })

  test("a header with fewer entries than the depth names nobody: it cannot use up the address it names", async () => {
    // Only a request that did not come through the chain carries fewer entries than the proxies add.
    const { config, log } = limited({ ipHeaderDepth: 2 })
    for (let i = 0; i < 8; i++) await attempt(config, `user${i}`, "wrong", VICTIM)
    // Not counted under VICTIM (the only entry), nor under anything else.
    expect((await attempt(config, "grace", "battery staple", throughChain(VICTIM))).signedIn).toBe(
      true,
    )
    expect((await attempt(config, "ada", "correct horse", VICTIM)).signedIn).toBe(true)
    // The operator hears of it once: a proxy chain shorter than configured, or a way around it.
    expect(log.warnings.filter((code) => code === "rate-limit-client-address-missing")).toEqual([
      "rate-limit-client-address-missing",
    ])
  })

  test("with depth 1 (the default) the last entry is the client's, as before", async () => {
    const { config } = limited({ ipHeaderDepth: 1 })
    for (let i = 0; i < 5; i++)
      await attempt(config, `user${i}`, "wrong", `${10 + i}.0.0.1, ${ATTACKER}`)
    expect((await attempt(config, "ada", "correct horse", ATTACKER)).location).toBe(rateLimitedPage)
    expect((await attempt(config, "ada", "correct horse", VICTIM)).signedIn).toBe(true)
  })

  test("the depth is a positive whole number, and only with ipHeader", async () => {
    for (const rateLimit of [
      { ipHeader: "x-forwarded-for", ipHeaderDepth: 0 },
      { ipHeader: "x-forwarded-for", ipHeaderDepth: -1 },
      { ipHeader: "x-forwarded-for", ipHeaderDepth: 1.5 },
      { ipHeader: "x-forwarded-for", ipHeaderDepth: "2" },
      { ipHeader: "x-forwarded-for", ipHeaderDepth: Number.NaN },
      { ipHeader: "x-forwarded-for", ipHeaderDepth: Number.POSITIVE_INFINITY },
      { ipHeader: "x-forwarded-for", ipHeaderDepth: 2 ** 40 },
      { ipHeaderDepth: 2 },
    ]) {
      const { config, log } = makeConfig({ rateLimit: rateLimit as never })
      const response = await Auth(get("/auth/session"), config)
      expect(response.status).toBe(500)
      expect(log.errors[0]?.message).toMatch(/rateLimit\.ipHeaderDepth/)
    }
  })
})
