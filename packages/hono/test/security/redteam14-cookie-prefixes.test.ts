/**
 * Red team 14 (holds): cookie tossing. With an https `AUTH_URL` (the app behind
 * a TLS proxy), every cookie Tessera sets is `Secure` and prefixed (`__Host-`
 * for the CSRF token, `__Secure-` for the session). A session cookie without
 * the prefix, which a plain-http page or a sibling subdomain can plant, is no
 * session for `verifyAuth()` nor for `Auth()`. With the same name twice in
 * `Cookie`, both take the first: an app route never sees another user than the
 * auth routes do.
 */
import { afterEach, beforeEach, expect, test } from "vitest"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { startApp } from "../harness.js"

const running: { stop(): Promise<void> }[] = []
beforeEach(() => {
  process.env.AUTH_URL = "https://app.example.test"
})
afterEach(async () => {
  delete process.env.AUTH_URL
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

const SECURE_SESSION = "__Secure-tessera.session-token"
const alice = { username: "alice", password: integrationUsers.alice.password }

test("on https every cookie is Secure and prefixed; an unprefixed session cookie is none", async () => {
  const app = await startApp(() => integrationConfig())
  running.push(app)
  const browser = new HttpBrowser(app.origin)
  const signIn = await browser.signInWithCredentials(alice)
  expect(signIn.status).toBe(302)
  expect([...browser.jar.keys()].sort()).toEqual(["__Host-tessera.csrf-token", SECURE_SESSION])
  for (const line of signIn.headers.getSetCookie().filter((l) => !/max-age=0/i.test(l)))
    expect(line).toMatch(/;\s*Secure/i)
  expect((await browser.request("/me")).status).toBe(200)

  const tossed = new HttpBrowser(app.origin)
  tossed.jar.set("tessera.session-token", browser.jar.get(SECURE_SESSION)!)
  expect(await tossed.session()).toBeNull()
  expect((await tossed.request("/me")).status).toBe(401)
})

test("the same session cookie twice: verifyAuth() and Auth() both take the first", async () => {
  const app = await startApp(() => integrationConfig())
  running.push(app)
  const browser = new HttpBrowser(app.origin)
  await browser.signInWithCredentials(alice)
  const token = browser.jar.get(SECURE_SESSION)!
  for (const [cookie, expected] of [
    [`${SECURE_SESSION}=${token}; ${SECURE_SESSION}=garbage`, "Alice"],
    [`${SECURE_SESSION}=garbage; ${SECURE_SESSION}=${token}`, null],
  ] as const) {
    const session = await fetch(new URL("/auth/session", app.origin), { headers: { cookie } })
    const me = await fetch(new URL("/me", app.origin), { headers: { cookie } })
    const fromAuth = ((await session.json()) as { user?: { name?: string } } | null)?.user?.name
    const fromApp =
      me.status === 200 ? ((await me.json()) as { user: { name: string } }).user.name : null
    expect([fromAuth ?? null, fromApp]).toEqual([expected, expected])
  }
})
