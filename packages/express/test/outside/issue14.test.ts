/**
 * Issue 14, `@tessera/express` as the README's quick start and docs/express.md
 * use it: `ExpressAuth(config)` at `/auth` (or `@auth/express`'s `/auth/*`),
 * `getSession(req, config)`, the secret and origin from the environment, over
 * real HTTP. Imports only the public entry points.
 */
import { createServer } from "node:http"
import { createRequire } from "node:module"
import express5 from "express"
import { afterEach, describe, expect, test, vi } from "vitest"
import { ExpressAuth, getSession, type ExpressAuthConfig } from "@tessera/express"
import Credentials from "@tessera/core/providers/credentials"
import { HttpBrowser, listenOnLoopback, type LoopbackServer } from "@tessera/testing"

const express4 = createRequire(import.meta.url)("express-4") as typeof express5
const SECRET = "outside-tester-secret-0123456789abcdef"

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.stop()
  server = undefined
  vi.unstubAllEnvs()
})

/** The quick start: one credentials user, a page that needs a session. No secret in the config. */
async function quickStart(express: typeof express5, mount: string) {
  const base = mount.replace(/\/\*.*$/, "")
  const http = createServer()
  server = await listenOnLoopback(http)
  vi.stubEnv("AUTH_SECRET", SECRET)
  vi.stubEnv("AUTH_URL", server.origin)
  const authConfig: ExpressAuthConfig = {
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === "alice" && password === "wonderland-42" ? { id: "1", name: "Alice" } : null,
      }),
    ],
  }
  const app = express()
  app.use(mount, ExpressAuth(authConfig))
  app.get("/", async (req, res) => {
    const session = await getSession(req, authConfig)
    if (!session) return res.redirect(`${base}/signin?callbackUrl=/`)
    res.type("text").send(`Signed in as ${session.user?.name}.`)
  })
  http.on("request", app)
  return { browser: new HttpBrowser(server.origin, base), base }
}

describe.each([
  ["Express 5, app.use('/auth')", express5, "/auth"],
  ["Express 5, app.use('/auth/*splat')", express5, "/auth/*splat"],
  ["Express 4, app.use('/auth/*')", express4, "/auth/*"],
  ["Express 5, app.use('/api/auth'), AUTH_URL without a path", express5, "/api/auth"],
  ["Express 4, app.use('/api/auth/*')", express4, "/api/auth/*"],
])("%s", (_, express, mount) => {
  test("signed out: the page sends to the sign-in page, which is served", async () => {
    const { browser, base } = await quickStart(express as typeof express5, mount)
    const home = await browser.request("/")
    expect(home.status).toBe(302)
    expect(home.headers.get("location")).toBe(`${base}/signin?callbackUrl=/`)
    const signin = await browser.request(`${base}/signin?callbackUrl=/`)
    expect(signin.status).toBe(200)
    const html = await signin.text()
    expect(html).toContain('name="username"')
    expect(html).toContain(`action="${browser.origin}${base}/callback/credentials"`)
  })

  test("signs in with the credentials form, and getSession sees the user", async () => {
    const { browser } = await quickStart(express as typeof express5, mount)
    const wrong = await browser.signInWithCredentials({ username: "alice", password: "x" })
    expect(wrong.headers.get("location")).toContain("error=CredentialsSignin")
    const right = await browser.signInWithCredentials(
      { username: "alice", password: "wonderland-42" },
      { callbackUrl: "/" },
    )
    expect(right.status).toBe(302)
    expect(right.headers.get("location")).toBe(`${browser.origin}/`)
    expect(await (await browser.request("/")).text()).toBe("Signed in as Alice.")
    expect((await browser.session())?.user?.name).toBe("Alice")
    await browser.signOut()
    expect(await browser.session()).toBeNull()
  })
})
