/**
 * ExpressAuth mounted where the configuration does not say (`/api/auth`, `/:tenant/auth`, an
 * array of paths) serves a copy of it per mount path, with `basePath` set. Core says some
 * warnings once per configuration: about the configuration itself when it is first resolved
 * (trustHost with no allowedHosts), and some on the first request that shows the problem (a
 * per-IP rate limit that found no client address). Each copy counted as a configuration of its
 * own, and all but the first had their warnings silenced: such a warning was said twice (the
 * app's object through `getSession` or a plain `/auth` mount, and its first copy), or never (a
 * problem first shown under a second path). They are now the app's configuration's: said once,
 * to the app's logger, whichever copy shows them.
 */
import { afterEach, expect, test } from "vitest"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import type { AuthConfig } from "@tessera/core"
import { startApp, type AppOptions } from "./harness.js"

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

/** The app with a logger that records warnings; the rate limits key on a header no request sends. */
async function start(options: AppOptions) {
  const warnings: string[] = []
  const app = await startApp(
    (): AuthConfig =>
      integrationConfig({
        logger: { warn: (code) => void warnings.push(code), error: () => {} },
        rateLimit: { ipHeader: "x-client-ip" },
      }),
    options,
  )
  running.push(app)
  return { origin: app.origin, warnings }
}

const said = (warnings: string[], code: string) => warnings.filter((w) => w === code).length

/** A credentials sign-in under `basePath`: a per-IP limit looks for the client's address. */
async function signIn(origin: string, basePath: string) {
  const browser = new HttpBrowser(origin, basePath)
  const { password } = integrationUsers.alice
  expect((await browser.signInWithCredentials({ username: "alice", password })).status).toBe(302)
  return browser
}

test("a configuration warning is said once, for getSession's object and the mount's copy", async () => {
  const { origin, warnings } = await start({ mount: "/api/auth" })
  const browser = await signIn(origin, "/api/auth")
  // GET /me reads the session through getSession(req, config): the app's own object.
  expect((await browser.request("/me")).status).toBe(200)
  expect(said(warnings, "trust-host-unbounded")).toBe(1)
})

test("a warning first shown under a second mount path is said, once", async () => {
  const { origin, warnings } = await start({ mount: "/:tenant/auth" })
  expect((await new HttpBrowser(origin).request("/acme/auth/csrf")).status).toBe(200)
  expect(warnings).not.toContain("rate-limit-client-address-missing")
  // globex's copy is the second: the missing address is first seen there.
  await signIn(origin, "/globex/auth")
  await signIn(origin, "/initech/auth")
  expect(said(warnings, "rate-limit-client-address-missing")).toBe(1)
  expect(said(warnings, "trust-host-unbounded")).toBe(1)
})

test("one middleware at /auth and /api/auth: each warning once", async () => {
  const { origin, warnings } = await start({ mount: ["/auth", "/api/auth"] as unknown as string })
  await signIn(origin, "/auth")
  await signIn(origin, "/api/auth")
  expect(said(warnings, "rate-limit-client-address-missing")).toBe(1)
  expect(said(warnings, "trust-host-unbounded")).toBe(1)
})
