/**
 * `rateLimit: { clientAddress: true }` on Express, over real HTTP on loopback:
 * the per-IP limits count under `req.ip`, which ExpressAuth hands to core with
 * the request. With `trust proxy` (one hop: the test client stands for the
 * proxy) `req.ip` is the entry the proxy appended to `X-Forwarded-For`, so two
 * clients behind it have counts of their own and the entries a client writes
 * itself buy it nothing. Without `trust proxy` it is the socket's peer: a
 * forged `X-Forwarded-For` gets no fresh count. Without the option nothing is
 * keyed by address.
 */
import { afterAll, describe, expect, test } from "vitest"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { HttpBrowser, integrationConfig } from "@tessera/testing"
import { startApp } from "../harness.js"

const provider = Credentials({
  credentials: { username: { label: "Username" }, password: { label: "Password" } },
  authorize: ({ username, password }) =>
    password === "pw" ? { id: String(username), name: String(username) } : null,
})

const ATTACKER = "203.0.113.66"
const VICTIM = "192.0.2.10"

const apps: { stop(): Promise<void> }[] = []
afterAll(() => Promise.all(apps.map((app) => app.stop())))

async function start(rateLimit: Record<string, unknown>, trustProxy?: number) {
  const warnings: string[] = []
  const app = await startApp(
    () =>
      integrationConfig({
        providers: [provider],
        logger: { error: () => {}, warn: (code) => void warnings.push(code) },
        rateLimit: {
          store: new MemoryRateLimitStore(),
          // Only the per-IP limit: a lockout here is the IP limit's doing.
          credentials: false,
          credentialsIp: { max: 3, window: 900 },
          ...rateLimit,
        },
      }),
    { before: (express) => trustProxy !== undefined && express.set("trust proxy", trustProxy) },
  )
  apps.push(app)
  return { origin: app.origin, warnings }
}

/** A credentials sign-in from a fresh browser: `pw` is right, anything else wrong. */
async function attempt(origin: string, username: string, password: string, xff?: string) {
  const browser = new HttpBrowser(origin, "/auth", xff ? { "x-forwarded-for": xff } : {})
  const response = await browser.signInWithCredentials({ username, password })
  return {
    location: response.headers.get("location"),
    signedIn: (await browser.session()) !== null,
  }
}

const limited = (origin: string) => `${origin}/auth/signin?error=RateLimited`

describe("ExpressAuth with rateLimit.clientAddress", () => {
  test("trust proxy 1: each client behind the proxy has its own count; forged entries buy nothing", async () => {
    const { origin } = await start({ clientAddress: true }, 1)
    for (let i = 0; i < 3; i++) await attempt(origin, `u${i}`, "wrong", `10.0.0.${i}, ${ATTACKER}`)
    for (const forged of ["10.9.9.9", VICTIM, "1.1.1.1, 2.2.2.2"]) {
      const result = await attempt(origin, "ada", "pw", `${forged}, ${ATTACKER}`)
      expect(result.location).toBe(limited(origin))
      expect(result.signedIn).toBe(false)
    }
    // The victim, behind the same proxy, is unaffected (and naming them above charged them nothing).
    expect((await attempt(origin, "grace", "pw", VICTIM)).signedIn).toBe(true)
  })

  test("trust proxy not set: req.ip is the socket's peer, and X-Forwarded-For changes nothing", async () => {
    const { origin } = await start({ clientAddress: true })
    for (let i = 0; i < 3; i++) await attempt(origin, `u${i}`, "wrong", `198.51.100.${i}`)
    for (const forged of [undefined, "198.51.100.50", `${VICTIM}, 198.51.100.51`]) {
      const result = await attempt(origin, "ada", "pw", forged)
      expect(result.location).toBe(limited(origin))
    }
  })

  test("without the option the address keys nothing: no per-IP limit", async () => {
    const { origin, warnings } = await start({})
    for (let i = 0; i < 6; i++) await attempt(origin, `u${i}`, "wrong")
    expect((await attempt(origin, "ada", "pw")).signedIn).toBe(true)
    expect(warnings).not.toContain("rate-limit-client-address-missing")
  })
})
