/**
 * Red team 7: a response that carries a session cookie must not be kept by a
 * shared cache. When `getSession` moves a session forward, the route's
 * response carries the new session cookie; with no `Cache-Control`, a CDN that
 * caches it could sign the next visitor in as this one. Such a response is
 * `private, no-cache, no-store` unless the route says otherwise; a response
 * with no session cookie gains nothing.
 */
import { afterEach, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { getSession } from "../../src/index.js"
import { startApp, type AppOptions } from "../harness.js"

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

async function start(config: AuthConfig, options: AppOptions = {}) {
  const app = await startApp(() => config, options)
  running.push(app)
  return app
}

const alice = { username: "alice", password: integrationUsers.alice.password }
// updateAge 0: every read re-issues the session cookie (sliding expiry).
const sliding = () => integrationConfig({ logger: { error: () => {} }, session: { updateAge: 0 } })

const sessionCookie = (response: Response) =>
  response.headers.getSetCookie().some((line) => line.startsWith("tessera.session-token="))

test("a route whose response carries a moved-forward session cookie is private", async () => {
  const app = await start(sliding())
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)
  const response = await browser.request("/me")
  expect(response.status).toBe(200)
  expect(sessionCookie(response)).toBe(true)
  expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
})

test("a route's own Cache-Control has the last word; no session cookie, no Cache-Control", async () => {
  const config = sliding()
  const app = await start(config, {
    after: (express) =>
      express.get("/cached", async (req, res) => {
        const session = await getSession(req, config)
        res.set("Cache-Control", "private, max-age=60").json(session)
      }),
  })
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)
  const own = await browser.request("/cached")
  expect(sessionCookie(own)).toBe(true)
  expect(own.headers.get("cache-control")).toBe("private, max-age=60")

  const anonymous = await new HttpBrowser(app.origin).request("/me")
  expect(anonymous.status).toBe(401)
  expect(anonymous.headers.get("cache-control")).toBeNull()
})
