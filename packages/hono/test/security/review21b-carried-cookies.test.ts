/**
 * Review 21b: the cookies `getAuthUser` set, carried onto a route's own `Response`.
 *
 * `initAuthConfig` adds them once the route answered. A response with immutable
 * headers (`Response.redirect`, a `fetch` result passed through) kept none of
 * them: a sliding session never moved forward on such a route (`verifyAuth()`
 * routes had them, through Hono's `c.header`). And a route that set the same
 * cookie itself (clearing the session cookie to sign the user out) had core's
 * line appended after its own, by `initAuthConfig` or `verifyAuth()`: the
 * browser kept the session the route ended. So did a middleware reading the
 * session after `await next()`, after Tessera's own sign-out.
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { deleteCookie } from "hono/cookie"
import { getAuthUser, verifyAuth } from "../../src/index.js"
import { startApp } from "../harness.js"

const alice = { username: "alice", password: integrationUsers.alice.password }
let app: Awaited<ReturnType<typeof startApp>>

beforeAll(async () => {
  // updateAge 0: every read moves the session cookie forward.
  app = await startApp(
    () => integrationConfig({ logger: { error: () => {} }, session: { updateAge: 0 } }),
    {
      after: (hono) => {
        hono.get("/upstream", (c) => c.text("from upstream"))
        // A `fetch` result passed through: its headers are immutable.
        hono.get("/proxied", async (c) => {
          await getAuthUser(c)
          return fetch(new URL("/upstream", c.req.url))
        })
        hono.get("/leave", async (c) => {
          await getAuthUser(c)
          const headers = { "Set-Cookie": "tessera.session-token=; Path=/; Max-Age=0" }
          return new Response("bye", { headers })
        })
        // A sign-out of the app's own behind `verifyAuth()`, which reads the session first.
        hono.post("/api/leave", verifyAuth(), (c) => {
          deleteCookie(c, "tessera.session-token", { path: "/" })
          return c.text("bye")
        })
      },
    },
  )
})
afterAll(() => app.stop())

test("a middleware reading the session after the sign-out answered does not undo it", async () => {
  // Reads the session once the route answered (to log who made the request, say).
  const after = await startApp(
    () => integrationConfig({ logger: { error: () => {} }, session: { updateAge: 0 } }),
    {
      before: (hono) =>
        hono.use("*", async (c, next) => {
          await next()
          await getAuthUser(c)
        }),
    },
  )
  try {
    const browser = new HttpBrowser(after.origin)
    await browser.signInWithCredentials(alice)
    const signOut = await browser.signOut()
    expect(sessionLines(signOut).at(-1)).toMatch(/Max-Age=0/i)
    expect(browser.jar.has("tessera.session-token")).toBe(false)
    expect(await browser.session()).toBeNull()
  } finally {
    await after.stop()
  }
})

const sessionLines = (response: Response) =>
  response.headers.getSetCookie().filter((line) => line.startsWith("tessera.session-token="))

test("a route passing a fetch result through (immutable headers) still carries the moved-forward session", async () => {
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)
  const moved = await browser.request("/proxied")
  expect(await moved.text()).toBe("from upstream")
  expect(sessionLines(moved)).toHaveLength(1)
  expect(sessionLines(moved)[0]).not.toMatch(/Max-Age=0/i)
  expect(moved.headers.get("cache-control")).toBe("private, no-cache, no-store")
})

test("a route that clears the session cookie itself: its line is the one the browser keeps", async () => {
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)
  const leave = await browser.request("/leave")
  expect(await leave.text()).toBe("bye")
  expect(sessionLines(leave).at(-1)).toMatch(/Max-Age=0/i)
  expect(browser.jar.has("tessera.session-token")).toBe(false)
  expect(await browser.session()).toBeNull()
})

test("a verifyAuth route that clears the session cookie itself: its line is the one the browser keeps", async () => {
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)
  const leave = await browser.request("/api/leave", { method: "POST" })
  expect(await leave.text()).toBe("bye")
  expect(sessionLines(leave).at(-1)).toMatch(/Max-Age=0/i)
  expect(browser.jar.has("tessera.session-token")).toBe(false)
  expect(await browser.session()).toBeNull()
})
