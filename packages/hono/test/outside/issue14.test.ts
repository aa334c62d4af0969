/**
 * Issue 14, `@tessera/hono` with the `@hono/auth-js` surface as docs/hono.md
 * and the README's quick start use it: `initAuthConfig`, `authHandler`,
 * `verifyAuth`, `getAuthUser`, over real HTTP on `@hono/node-server`, the
 * secret and origin from the environment (the docs' configuration has neither).
 * Imports only public entry points.
 */
import type { Server } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import { afterEach, describe, expect, test, vi } from "vitest"
import {
  authHandler,
  getAuthUser,
  initAuthConfig,
  verifyAuth,
  type AuthConfig,
} from "@tessera/hono"
import Credentials from "@tessera/core/providers/credentials"
import { HttpBrowser, listenOnLoopback, type LoopbackServer } from "@tessera/testing"

const SECRET = "outside-tester-secret-0123456789abcdef"

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
  vi.unstubAllEnvs()
})

/** A configuration per app: one object for the life of the app, as the docs ask. */
const makeAuthConfig = (): AuthConfig => ({
  providers: [
    Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize: ({ username, password }) =>
        username === "alice" && password === "wonderland-42" ? { id: "1", name: "Alice" } : null,
    }),
  ],
})

async function start(base: string) {
  const authConfig = makeAuthConfig()
  const app = new Hono()
  app.use(
    "*",
    initAuthConfig(() => authConfig),
  )
  app.use(`${base}/*`, authHandler())
  app.get("/", async (c) => {
    const authUser = await getAuthUser(c)
    return c.text(authUser ? `Signed in as ${authUser.session.user?.name}` : "Not signed in")
  })
  app.use("/api/*", verifyAuth())
  app.get("/api/me", (c) => c.json(c.get("authUser").session))
  server = await listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as Server)
  vi.stubEnv("AUTH_SECRET", SECRET)
  vi.stubEnv("AUTH_URL", server.origin)
  return new HttpBrowser(server.origin, base)
}

describe.each(["/auth", "/api/auth"])("authHandler() at %s/*", (base) => {
  test("verifyAuth answers 401 without a session; getAuthUser is null", async () => {
    const browser = await start(base)
    expect((await browser.request("/api/me")).status).toBe(401)
    expect(await (await browser.request("/")).text()).toBe("Not signed in")
  })

  test("a credentials sign-in over HTTP: verifyAuth lets through, c.get('authUser') has the session", async () => {
    const browser = await start(base)
    const signedIn = await browser.signInWithCredentials({
      username: "alice",
      password: "wonderland-42",
    })
    expect(signedIn.status).toBe(302)
    expect(signedIn.headers.get("location")).not.toContain("error=")
    const me = await browser.request("/api/me")
    expect(me.status).toBe(200)
    expect(((await me.json()) as { user: { name: string } }).user.name).toBe("Alice")
    expect(await (await browser.request("/")).text()).toBe("Signed in as Alice")
  })
})
