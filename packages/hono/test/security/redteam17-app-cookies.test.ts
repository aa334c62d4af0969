/**
 * Red team 17: cookies an app's own middleware sets before `authHandler()`.
 *
 * Hono keeps headers set before a handler on the response begun for the
 * request (`c.res`), and once that response exists (Hono's `cors()` touches it
 * on every request) it puts that response's `Set-Cookie` lines in place of
 * the returned response's. An app with `cors()` and a middleware that sets a
 * cookie of its own (a theme, a session of its own) lost every cookie core
 * sets: a sign-in set no session, and a sign-out cleared none, so the
 * browser kept a JWT session cookie the user believed ended. Both sets of
 * cookies now reach the browser, each on its own line, core's after the app's,
 * as on Express; headers core sets win over the app's.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { cors } from "hono/cors"
import { setCookie } from "hono/cookie"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { startApp } from "../harness.js"

const alice = { username: "alice", password: integrationUsers.alice.password }
const config = () => integrationConfig({ logger: { error: () => {} } })
const apps: Record<"cors" | "plain", Awaited<ReturnType<typeof startApp>>> = {} as never

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
