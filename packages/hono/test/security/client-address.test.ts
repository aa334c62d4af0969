/**
 * `rateLimit: { clientAddress: true }` on Hono, over real HTTP on loopback: `authHandler({
 * clientAddress })` hands core the address the app names, here the connection's peer through
 * `@hono/node-server`'s `getConnInfo`. A client's failed sign-ins then count under its
 * address: another username from the same address is locked out too, and a forged
 * `X-Forwarded-For` buys no fresh count. Without the option the request carries no address, so
 * nothing is keyed by it (the per-identifier limits are off here).
 */
import { getConnInfo } from "@hono/node-server/conninfo"
import { afterAll, expect, test } from "vitest"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { HttpBrowser, integrationConfig } from "@tessera/testing"
import { startApp } from "../harness.js"
import type { AuthHandlerOptions } from "../../src/index.js"

const provider = Credentials({
  credentials: { username: { label: "Username" }, password: { label: "Password" } },
  authorize: ({ username, password }) =>
    password === "pw" ? { id: String(username), name: String(username) } : null,
})

const apps: { stop(): Promise<void> }[] = []
afterAll(() => Promise.all(apps.map((app) => app.stop())))

async function start(handler: AuthHandlerOptions) {
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
          clientAddress: true,
        },
      }),
    { handler },
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

const byConnection: AuthHandlerOptions = { clientAddress: (c) => getConnInfo(c).remote.address }

test("the connection's address: failures lock out that address, whatever the username or X-Forwarded-For", async () => {
  const { origin, warnings } = await start(byConnection)
  for (let i = 0; i < 3; i++) await attempt(origin, `guess-${i}`, "wrong")
  for (const xff of [undefined, "198.51.100.7", "192.0.2.99, 198.51.100.8"]) {
    const next = await attempt(origin, "ada", "pw", xff)
    expect(next).toEqual({ location: `${origin}/auth/signin?error=RateLimited`, signedIn: false })
  }
  expect(warnings).not.toContain("rate-limit-client-address-missing")
})

test("an address function that cannot tell: counted per identifier only, and said once", async () => {
  const { origin, warnings } = await start({ clientAddress: () => undefined })
  for (let i = 0; i < 4; i++) await attempt(origin, `guess-${i}`, "wrong")
  expect(await attempt(origin, "ada", "pw")).toMatchObject({ signedIn: true })
  expect(warnings.filter((code) => code === "rate-limit-client-address-missing")).toHaveLength(1)
})

test("without the option no address travels with the request: nothing is keyed by one", async () => {
  const { origin, warnings } = await start({})
  for (let i = 0; i < 4; i++) await attempt(origin, `guess-${i}`, "wrong")
  expect(await attempt(origin, "ada", "pw")).toMatchObject({ signedIn: true })
  expect(warnings).toContain("rate-limit-client-address-missing")
})
