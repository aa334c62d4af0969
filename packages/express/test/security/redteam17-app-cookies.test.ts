/**
 * Red team 17, held: cookies and headers an Express app sets before
 * `ExpressAuth` (`res.cookie`, `res.setHeader`, the `cors` package) on the auth
 * routes' answers. Core's `Set-Cookie` lines follow the app's, each on its own
 * line, so a sign-in sets the session and a sign-out clears it; where both set
 * a header, core's wins (the session answer stays out of shared caches). Hono
 * lost core's cookies in this setup (packages/hono/test/security/redteam17-app-cookies.test.ts).
 */
import { afterAll, beforeAll, expect, test } from "vitest"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { startApp } from "../harness.js"

const alice = { username: "alice", password: integrationUsers.alice.password }
let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp(() => integrationConfig({ logger: { error: () => {} } }), {
    before: (express) =>
      express.use((_req, res, next) => {
        res.cookie("theme", "dark")
        res.setHeader("Cache-Control", "public, max-age=600")
        next()
      }),
  })
})
afterAll(() => app.stop())

test("sign-in and sign-out set and clear the session beside the app's cookie; core's Cache-Control wins", async () => {
  const browser = new HttpBrowser(app.origin)
  const signIn = await browser.signInWithCredentials(alice)
  const lines = signIn.headers.getSetCookie()
  expect(lines[0]).toMatch(/^theme=dark;/)
  expect(lines.some((line) => line.startsWith("tessera.session-token=ey"))).toBe(true)

  const session = await browser.request("/auth/session")
  expect(session.headers.get("cache-control")).not.toMatch(/public/)
  expect(((await session.json()) as { user?: unknown } | null)?.user).toBeTruthy()

  const signOut = await browser.signOut()
  expect(signOut.headers.getSetCookie()[0]).toMatch(/^theme=dark;/)
  expect(browser.jar.has("tessera.session-token")).toBe(false)
  expect(await browser.session()).toBeNull()
})
