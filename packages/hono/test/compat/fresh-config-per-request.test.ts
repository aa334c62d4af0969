/**
 * `@hono/auth-js`'s README builds the configuration in the `initAuthConfig` callback, a new
 * literal on every request: `initAuthConfig((c) => ({ secret: c.env.AUTH_SECRET, ... }))`. An
 * app moved over by changing its imports keeps that pattern. docs/hono.md and the migration
 * guide say what it does here: it works (sign-in, the session, `verifyAuth()`), and although
 * each new object is validated anew, the start-up warnings are said once per process (per
 * logger), as Auth.js says them, not on every request.
 */
import type { Server } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { afterEach, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { WarningCode } from "@tessera/core/types"
import { HttpBrowser, integrationConfig, listenOnLoopback } from "@tessera/testing"
import { honoApp } from "../harness.js"

const stops: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()))
})

/** Serves `honoApp` with `config` as the `initAuthConfig` callback; collects the warnings said. */
async function serve(config: (warn: (code: WarningCode) => void) => () => AuthConfig) {
  const warnings: WarningCode[] = []
  const app = honoApp(config((code) => void warnings.push(code)))
  const { origin, stop } = await listenOnLoopback(
    createAdaptorServer({ fetch: app.fetch }) as Server,
  )
  stops.push(stop)
  return { browser: new HttpBrowser(origin), origin, warnings }
}

// trustHost with no url and no allowedHosts: `trust-host-unbounded`, said once per process.
const options = (warn: (code: WarningCode) => void): Partial<AuthConfig> => ({
  logger: { warn, error: () => {} },
})

test("a new configuration literal per request signs in and reads the session, as in @hono/auth-js", async () => {
  const { browser, origin } = await serve((warn) => () => integrationConfig(options(warn)))
  expect((await browser.request("/me")).status).toBe(401)
  const signedIn = await browser.signInWithCredentials(
    { username: "alice", password: "wonderland-42" },
    { callbackUrl: "/" },
  )
  expect(signedIn.headers.get("location")).toBe(`${origin}/`)
  const me = await browser.request("/me")
  expect(me.status).toBe(200)
  expect(await me.json()).toMatchObject({ user: { name: "Alice" } })
})

test("a new literal per request says its warnings once across 5 requests, as one object kept does", async () => {
  const fresh = await serve((warn) => () => integrationConfig(options(warn)))
  const kept = await serve((warn) => {
    const config = integrationConfig(options(warn))
    return () => config
  })
  for (const { browser } of [fresh, kept])
    for (let i = 0; i < 5; i++) expect((await browser.request("/auth/session")).status).toBe(200)

  const unbounded = (codes: WarningCode[]) =>
    codes.filter((code) => code === "trust-host-unbounded")
  expect(unbounded(fresh.warnings)).toHaveLength(1)
  expect(unbounded(kept.warnings)).toHaveLength(1)
})
