/**
 * Issue 14, `@tessera/hono` with the `@hono/auth-js` surface as docs/hono.md
 * and the README's quick start use it: `initAuthConfig`, `authHandler`,
 * `verifyAuth`, `getAuthUser`, over real HTTP on `@hono/node-server`, the
 * secret and origin from the environment. Imports only public entry points.
 */
import type { Server } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import { afterEach, expect, test, vi } from "vitest"
import {
  authHandler,
  getAuthUser,
  initAuthConfig,
  reqWithEnvUrl,
  setEnvDefaults,
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

async function start(mount = "/auth/*", basePath = "/auth") {
  const authConfig = makeAuthConfig()
  const app = new Hono()
  app.use(
    "*",
    initAuthConfig(() => authConfig),
  )
  app.use(mount, authHandler())
  app.get("/", async (c) => {
    const authUser = await getAuthUser(c)
    return c.text(authUser ? `Signed in as ${authUser.session.user?.name}` : "Not signed in")
  })
  app.use("/api/*", verifyAuth())
  app.get("/api/me", (c) => c.json(c.get("authUser").session))
  server = await listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as Server)
  vi.stubEnv("AUTH_SECRET", SECRET)
  vi.stubEnv("AUTH_URL", server.origin)
  return new HttpBrowser(server.origin, basePath)
}

test("verifyAuth answers 401 without a session; getAuthUser is null", async () => {
  const browser = await start()
  expect((await browser.request("/api/me")).status).toBe(401)
  expect(await (await browser.request("/")).text()).toBe("Not signed in")
})

test("a credentials sign-in over HTTP: verifyAuth lets through, c.get('authUser') has the session", async () => {
  const browser = await start()
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

test("authHandler() registered at /api/auth/* serves /api/auth/signin", async () => {
  const authConfig = makeAuthConfig()
  const app = new Hono()
  app.use(
    "*",
    initAuthConfig(() => authConfig),
  )
  app.use("/api/auth/*", authHandler())
  server = await listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as Server)
  vi.stubEnv("AUTH_SECRET", SECRET)
  vi.stubEnv("AUTH_TRUST_HOST", "true")
  const signin = await fetch(`${server.origin}/api/auth/signin`)
  expect(signin.status).toBe(200)
  expect(await signin.text()).toContain(`action="${server.origin}/api/auth/callback/credentials"`)
})

test("setEnvDefaults and reqWithEnvUrl, as @hono/auth-js has them", () => {
  const config: AuthConfig = { providers: [] }
  setEnvDefaults({ AUTH_SECRET: SECRET }, config)
  expect(config.secret).toBeTruthy()
  const moved = reqWithEnvUrl(
    new Request("http://127.0.0.1:8787/auth/session?x=1"),
    "https://app.example",
  )
  expect(moved.url).toBe("https://app.example/auth/session?x=1")
})
