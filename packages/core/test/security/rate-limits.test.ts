/**
 * Attacks on the endpoints an attacker hammers, driven through `Auth()` the
 * way an attacker can: guessing one account's password (the lockout must hold
 * even against the right password), probing which identifiers have accounts
 * through the limit's answers, and dodging an IP limit with forged
 * `X-Forwarded-For` headers. The clock is the limiter's injected one: no test
 * waits.
 */
import { describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"
import Passkey from "@tessera/core/providers/passkey"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { MemoryAdapter } from "@tessera/testing"
import {
  csrfToken,
  get,
  makeConfig,
  recordingLogger,
  ORIGIN,
  post,
  setsSession,
  SECRET,
} from "../harness/index.js"

const USERS: Record<string, string> = { ada: "correct horse", grace: "battery staple" }

function provider() {
  return Credentials({
    credentials: {
      username: { label: "Username" },
      password: { label: "Password", type: "password" },
    },
    authorize: ({ username, password }) =>
      typeof username === "string" && USERS[username] === password
        ? { id: username, name: username }
        : null,
  })
}

/** A configuration with its own store and a clock the test moves. */
function limited(rateLimit: Record<string, unknown> = {}, overrides: Partial<AuthConfig> = {}) {
  const clock = { now: Date.parse("2030-01-01T00:00:00Z") }
  const store = new MemoryRateLimitStore({ now: () => clock.now })
  const { config, log } = makeConfig({
    providers: [provider()],
    rateLimit: { store, now: () => clock.now, ...rateLimit },
    ...overrides,
  })
  return { config, log, clock, store }
}

/** One credentials attempt from a fresh browser; what the attacker sees. */
async function attempt(
  config: AuthConfig,
  username: string,
  password: string,
  headers: Record<string, string> = {},
) {
  const { token, jar } = await csrfToken(config)
  const response = await Auth(
    post("/auth/callback/credentials", { username, password, csrfToken: token }, { jar, headers }),
    config,
  )
  return {
    status: response.status,
    location: response.headers.get("location"),
    retryAfter: response.headers.get("retry-after"),
    signedIn: setsSession(response),
  }
}

const rateLimitedPage = `${ORIGIN}/auth/signin?error=RateLimited`
const wrongPasswordPage = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`

describe("credentials brute force", () => {
  test("10 wrong passwords lock the identifier; the right password does not get through until the window passes", async () => {
    const { config, clock } = limited()
    for (let i = 0; i < 10; i++) {
      const result = await attempt(config, "ada", `guess ${i}`)
      expect(result.location).toBe(wrongPasswordPage)
    }
    const locked = await attempt(config, "ada", "correct horse")
    expect(locked.signedIn).toBe(false)
    expect(locked.location).toBe(rateLimitedPage)
    expect(Number(locked.retryAfter)).toBeGreaterThan(0)
    expect(Number(locked.retryAfter)).toBeLessThanOrEqual(30 * 60)
    // Same identifier, another spelling: one count.
    expect((await attempt(config, "  ADA ", "correct horse")).location).toBe(rateLimitedPage)

    // Other identifiers are unaffected, right or wrong.
    expect((await attempt(config, "grace", "battery staple")).signedIn).toBe(true)
    expect((await attempt(config, "grace", "nope")).location).toBe(wrongPasswordPage)

    clock.now += Number(locked.retryAfter) * 1000
    const after = await attempt(config, "ada", "correct horse")
    expect(after.signedIn).toBe(true)
  })

  test("a success clears the identifier's failures", async () => {
    const { config } = limited()
    for (let i = 0; i < 9; i++) await attempt(config, "ada", "wrong")
    expect((await attempt(config, "ada", "correct horse")).signedIn).toBe(true)
    for (let i = 0; i < 10; i++)
      expect((await attempt(config, "ada", "wrong")).location).toBe(wrongPasswordPage)
  })

  test("concurrent guesses cannot slip past the count", async () => {
    const { config } = limited({ credentials: { max: 3, window: 900 } })
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(config, "ada", `guess ${i}`)),
    )
    expect(results.filter((r) => r.location === wrongPasswordPage)).toHaveLength(3)
    expect(results.filter((r) => r.location === rateLimitedPage)).toHaveLength(17)
  })

  test("the lock holds at signin/<id> too, where credentials are also accepted", async () => {
    const { config } = limited({ credentials: { max: 2, window: 900 } })
    await attempt(config, "ada", "a")
    await attempt(config, "ada", "b")
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/signin/credentials",
        { username: "ada", password: "correct horse", csrfToken: token },
        { jar },
      ),
      config,
    )
    expect(response.headers.get("location")).toBe(rateLimitedPage)
    expect(setsSession(response)).toBe(false)
  })

  test("answered as JSON to scripts that ask for the redirect as JSON", async () => {
    const { config } = limited({ credentials: { max: 1, window: 900 } })
    await attempt(config, "ada", "a")
    const result = await attempt(config, "ada", "correct horse", { "x-auth-return-redirect": "1" })
    expect(result.status).toBe(200)
  })
})

describe("no account-existence leak through the limit", () => {
  test("an identifier with an account and one without get the same answers, byte for byte", async () => {
    const transcript = async (username: string) => {
      const { config } = limited()
      const seen: unknown[] = []
      for (let i = 0; i < 12; i++) seen.push(await attempt(config, username, `guess ${i}`))
      return seen
    }
    expect(await transcript("nobody-here")).toEqual(await transcript("ada"))
  })

  test("e-mail sign-in: 5 mails per address per hour, the same for known and unknown addresses", async () => {
    const sent: string[] = []
    const adapter = MemoryAdapter()
    await adapter.createUser!({
      id: "u1",
      email: "known@example.com",
      emailVerified: new Date(),
      name: null,
      image: null,
    })
    const clock = { now: Date.parse("2030-01-01T00:00:00Z") }
    const { config } = makeConfig({
      adapter,
      rateLimit: { store: new MemoryRateLimitStore(), now: () => clock.now },
      providers: [
        {
          id: "email",
          type: "email",
          name: "Email",
          sendVerificationRequest: ({ identifier }: { identifier: string }) =>
            void sent.push(identifier),
        } as never,
      ],
    })
    const request = async (email: string) => {
      const { token, jar } = await csrfToken(config)
      const response = await Auth(
        post("/auth/signin/email", { email, csrfToken: token }, { jar }),
        config,
      )
      return [
        response.status,
        response.headers.get("location"),
        response.headers.get("retry-after"),
      ]
    }
    const known: unknown[] = []
    const unknown: unknown[] = []
    for (let i = 0; i < 7; i++) {
      known.push(await request("known@example.com"))
      unknown.push(await request("unknown@example.com"))
    }
    expect(known).toEqual(unknown)
    expect(known[5]).toEqual([302, rateLimitedPage, expect.stringMatching(/^\d+$/)])
    expect(sent.filter((a) => a === "known@example.com")).toHaveLength(5)
    expect(sent.filter((a) => a === "unknown@example.com")).toHaveLength(5)
    // Addresses are counted as the provider normalises them.
    expect(await request(" KNOWN@example.com ")).toEqual(known[6])
  })
})

describe("X-Forwarded-For", () => {
  test("ignored unless the app names the header: a forged one neither frees a locked identifier nor is counted", async () => {
    const { config } = limited({ credentials: { max: 3, window: 900 } })
    for (let i = 0; i < 3; i++)
      await attempt(config, "ada", "wrong", { "x-forwarded-for": `10.0.0.${i}` })
    const result = await attempt(config, "ada", "correct horse", {
      "x-forwarded-for": "192.0.2.99",
    })
    expect(result.location).toBe(rateLimitedPage)
  })

  test("with ipHeader, failures count per address; prepended (forged) entries change nothing", async () => {
    const { config } = limited({
      ipHeader: "x-forwarded-for",
      credentialsIp: { max: 5, window: 900 },
    })
    // Five identifiers, one address, each guess under a different forged client address.
    for (let i = 0; i < 5; i++) {
      const result = await attempt(config, `user${i}`, "wrong", {
        "x-forwarded-for": `203.0.113.${i}, 198.51.100.7`,
      })
      expect(result.location).toBe(wrongPasswordPage)
    }
    const blocked = await attempt(config, "grace", "battery staple", {
      "x-forwarded-for": "203.0.113.200, 198.51.100.7",
    })
    expect(blocked.location).toBe(rateLimitedPage)
    // Another client (as the proxy reports it) is unaffected.
    const other = await attempt(config, "grace", "battery staple", {
      "x-forwarded-for": "198.51.100.8",
    })
    expect(other.signedIn).toBe(true)
  })

  test("one IPv6 /64 is one client", async () => {
    const { config } = limited({ ipHeader: "x-real-ip", credentialsIp: { max: 2, window: 900 } })
    await attempt(config, "a", "x", { "x-real-ip": "2001:db8:1:2::1" })
    await attempt(config, "b", "x", { "x-real-ip": "2001:db8:1:2:ffff::9" })
    const result = await attempt(config, "grace", "battery staple", {
      "x-real-ip": "2001:0db8:0001:0002:abcd::1",
    })
    expect(result.location).toBe(rateLimitedPage)
  })

  test("successes from an address do not wipe out its failures", async () => {
    const { config } = limited({
      ipHeader: "x-real-ip",
      credentialsIp: { max: 3, window: 900 },
    })
    const from = { "x-real-ip": "198.51.100.1" }
    for (let i = 0; i < 3; i++) {
      await attempt(config, `user${i}`, "wrong", from)
      await attempt(config, "grace", "battery staple", from)
    }
    expect((await attempt(config, "grace", "battery staple", from)).location).toBe(rateLimitedPage)
  })
})

describe("configuration", () => {
  test("rateLimit: false turns the password limits off", async () => {
    const { config } = makeConfig({ providers: [provider()], rateLimit: false })
    for (let i = 0; i < 30; i++) await attempt(config, "ada", "wrong")
    expect((await attempt(config, "ada", "correct horse")).signedIn).toBe(true)
  })

  test("a rule set to false is off; the others stay on", async () => {
    const { config } = limited({ credentials: false, credentialsIp: { max: 2, window: 60 } })
    for (let i = 0; i < 20; i++) await attempt(config, "ada", "wrong")
    expect((await attempt(config, "ada", "correct horse")).signedIn).toBe(true)
  })

  test("the default store holds when the framework builds a new configuration object per request", async () => {
    const username = `lazy-${crypto.randomUUID()}`
    const fresh = () =>
      ({
        secret: SECRET,
        trustHost: true,
        providers: [provider()],
        logger: recordingLogger().logger,
      }) satisfies AuthConfig
    for (let i = 0; i < 10; i++) await attempt(fresh(), username, "wrong")
    expect((await attempt(fresh(), username, "wrong")).location).toBe(rateLimitedPage)
  })

  test("credentialsIdentifier names the field that identifies", async () => {
    const { config } = limited({
      credentialsIdentifier: "password",
      credentials: { max: 1, window: 900 },
    })
    await attempt(config, "x", "sprayed password")
    // Another username with the same (sprayed) password is now refused.
    expect((await attempt(config, "y", "sprayed password")).location).toBe(rateLimitedPage)
  })

  test("unknown options and bad rules are configuration errors", async () => {
    for (const rateLimit of [
      { credential: { max: 1, window: 1 } },
      { email: { max: 0, window: 1 } },
    ]) {
      const { config, log } = makeConfig({ rateLimit: rateLimit as never })
      const response = await Auth(get("/auth/session"), config)
      expect(response.status).toBe(500)
      expect(log.errors[0]?.message).toMatch(/rateLimit/)
    }
  })
})

describe("passkey options", () => {
  test("per address given, and per IP address with ipHeader: 429 with Retry-After", async () => {
    const clock = { now: Date.parse("2030-01-01T00:00:00Z") }
    const { config } = makeConfig({
      adapter: MemoryAdapter(),
      providers: [Passkey()],
      rateLimit: {
        store: new MemoryRateLimitStore(),
        now: () => clock.now,
        ipHeader: "x-real-ip",
        webauthnOptions: { max: 2, window: 60 },
        webauthnOptionsIp: { max: 5, window: 60 },
      },
    })
    const options = (query: string, ip: string) =>
      Auth(get(`/auth/webauthn-options/passkey?${query}`, { headers: { "x-real-ip": ip } }), config)
    expect((await options("email=a@example.com", "192.0.2.1")).status).toBe(200)
    expect((await options("email=A@example.com", "192.0.2.2")).status).toBe(200)
    const byAddress = await options("email=a@example.com", "192.0.2.3")
    expect(byAddress.status).toBe(429)
    expect(byAddress.headers.get("retry-after")).toMatch(/^\d+$/)
    expect(await byAddress.json()).toEqual({ error: "RateLimited" })
    for (let i = 0; i < 5; i++)
      expect((await options("action=authenticate", "192.0.2.9")).status).toBe(200)
    expect((await options("action=authenticate", "192.0.2.9")).status).toBe(429)
    expect((await options("action=authenticate", "192.0.2.10")).status).toBe(200)
    // Sliding: the previous minute's requests weigh less as this one goes by, and nothing after two.
    clock.now += 120_000
    expect((await options("action=authenticate", "192.0.2.9")).status).toBe(200)
  })
})
