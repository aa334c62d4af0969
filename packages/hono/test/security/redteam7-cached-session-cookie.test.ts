/**
 * Red team 7: a response that carries a session cookie must not be kept by a
 * shared cache. When `getAuthUser` or `verifyAuth` moves a session forward,
 * the route's response carries the new session cookie; with no
 * `Cache-Control`, a CDN that caches it could sign the next visitor in as this
 * one. Such a response is `private, no-cache, no-store` unless the route says
 * otherwise (also on a raw `Response`); a response with no session cookie
 * gains nothing.
 */
import { afterEach, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { getAuthUser, verifyAuth } from "../../src/index.js"
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

const routes: AppOptions["after"] = (app) => {
  app.get("/hello", async (c) => c.json((await getAuthUser(c))?.session.user?.name ?? null))
  app.get("/own", async (c) => {
    await getAuthUser(c)
    return c.json("own", 200, { "Cache-Control": "private, max-age=60" })
  })
  app.use("/raw", verifyAuth())
  app.get("/raw", () => new Response("raw"))
}

test("responses that carry a moved-forward session cookie are private, raw ones too", async () => {
  const app = await start(sliding(), { after: routes })
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)
  for (const path of ["/hello", "/raw"]) {
    const response = await browser.request(path)
    expect(response.status, path).toBe(200)
    expect(sessionCookie(response), path).toBe(true)
    expect(response.headers.get("cache-control"), path).toBe("private, no-cache, no-store")
  }
})

test("a route's own Cache-Control is kept; no session cookie, no Cache-Control", async () => {
  const app = await start(sliding(), { after: routes })
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)
  const own = await browser.request("/own")
  expect(sessionCookie(own)).toBe(true)
  expect(own.headers.get("cache-control")).toBe("private, max-age=60")

  const anonymous = await new HttpBrowser(app.origin).request("/hello")
  expect(await anonymous.json()).toBeNull()
  expect(anonymous.headers.get("cache-control")).toBeNull()
})
