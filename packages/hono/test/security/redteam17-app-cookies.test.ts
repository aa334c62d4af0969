/**
 * Red team 17: cookies an app's own middleware sets before `authHandler()`.
 *
 * Hono keeps headers set before a handler on the response begun for the
 * request (`c.res`), and once that response exists (Hono's `cors()` touches it
 * on every request) it puts that response's `Set-Cookie` lines in place of
 * the returned response's. An app with `cors()` and a middleware that sets a
 * cookie of its own (a theme, a session of its own) lost every cookie core
 * sets: a sign-in set no session, and a sign-out cleared none, so the
 * browser kept a JWT session cookie the user believed ended (a middleware
 * reading the session on every route even moved it forward). Both sets of
 * cookies now reach the browser, each on its own line, core's after the app's,
 * as on Express; headers core sets win over the app's.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { cors } from "hono/cors"
import { setCookie } from "hono/cookie"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { getAuthUser } from "../../src/index.js"
import { startApp } from "../harness.js"

const alice = { username: "alice", password: integrationUsers.alice.password }
const config = () => integrationConfig({ logger: { error: () => {} } })
const apps: Record<"cors" | "plain" | "reader", Awaited<ReturnType<typeof startApp>>> = {} as never

beforeAll(async () => {
  for (const name of ["cors", "plain"] as const) {
    apps[name] = await startApp(config, {
      before: (app) => {
        if (name === "cors") app.use("*", cors())
        app.use("*", async (c, next) => {
          setCookie(c, "theme", "dark", { path: "/" })
          c.header("Cache-Control", "public, max-age=600")
          await next()
        })
      },
    })
  }
})
beforeAll(async () => {
  // Reads the session for every route (to show the user in a layout), the auth routes included;
  // updateAge 0: every read moves the session cookie forward.
  apps.reader = await startApp(
    () => integrationConfig({ logger: { error: () => {} }, session: { updateAge: 0 } }),
    {
      before: (app) => {
        app.use("*", cors())
        app.use("*", async (c, next) => {
          await getAuthUser(c)
          await next()
        })
      },
    },
  )
})
afterAll(() => Promise.all(Object.values(apps).map((app) => app.stop())))

const names = (response: Response) =>
  response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")))

describe.each(["cors", "plain"] as const)("an app with %s middleware setting a cookie", (name) => {
  test("sign-in sets the session cookie beside the app's, each on its own line", async () => {
    const browser = new HttpBrowser(apps[name].origin)
    const signIn = await browser.signInWithCredentials(alice)
    expect(signIn.status).toBe(302)
    expect(names(signIn)).toContain("tessera.session-token")
    expect(names(signIn)).toContain("theme")
    expect((await browser.session())?.user).toBeTruthy()
  })

  test("sign-out clears the session cookie: the browser is signed out", async () => {
    const browser = new HttpBrowser(apps[name].origin)
    await browser.signInWithCredentials(alice)
    const signOut = await browser.signOut()
    expect(signOut.status).toBe(302)
    expect(signOut.headers.getSetCookie().join("\n")).toMatch(
      /tessera\.session-token=;.*Max-Age=0/i,
    )
    expect(browser.jar.has("tessera.session-token")).toBe(false)
    expect(await browser.session()).toBeNull()
  })

  test("core's Cache-Control wins over the app's on the session answer", async () => {
    const browser = new HttpBrowser(apps[name].origin)
    await browser.signInWithCredentials(alice)
    const session = await browser.request("/auth/session")
    expect(session.headers.get("cache-control")).not.toMatch(/public/)
  })
})

test("a session read by a middleware before the auth routes does not outlive the sign-out", async () => {
  const browser = new HttpBrowser(apps.reader.origin)
  await browser.signInWithCredentials(alice)
  expect(await browser.session()).not.toBeNull()
  const signOut = await browser.signOut()
  // The read's moved-forward cookie comes first, the sign-out's expired one last: the last one counts.
  const lines = signOut.headers
    .getSetCookie()
    .filter((line) => line.startsWith("tessera.session-token="))
  expect(lines.at(-1)).toMatch(/Max-Age=0/i)
  expect(browser.jar.has("tessera.session-token")).toBe(false)
  expect(await browser.session()).toBeNull()
})

test("getAuthUser in a route that answers with a raw Response: its session cookies still reach the browser", async () => {
  const app = await startApp(
    () => integrationConfig({ logger: { error: () => {} }, session: { updateAge: 0 } }),
    {
      after: (hono) =>
        hono.get("/raw", async (c) => new Response((await getAuthUser(c)) ? "in" : "out")),
    },
  )
  try {
    const browser = new HttpBrowser(app.origin)
    await browser.signInWithCredentials(alice)
    // A sliding session moves forward on the read: the new cookie must not be lost.
    const moved = await browser.request("/raw")
    expect(await moved.text()).toBe("in")
    expect(names(moved)).toEqual(["tessera.session-token"])
    expect(moved.headers.get("cache-control")).toBe("private, no-cache, no-store")
    // A cookie that is no session is cleared, not left for every later request to re-read.
    browser.jar.set("tessera.session-token", "forged")
    const forged = await browser.request("/raw")
    expect(await forged.text()).toBe("out")
    expect(forged.headers.getSetCookie().join("\n")).toMatch(/tessera\.session-token=;.*Max-Age=0/i)
  } finally {
    await app.stop()
  }
})
