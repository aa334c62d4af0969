/**
 * Red team 14 (holds): cookie tossing. Behind a proxy that says https, every
 * cookie Tessera sets is `Secure` and prefixed (`__Host-` for the CSRF token,
 * `__Secure-` for the session). A session cookie without the prefix, which a
 * plain-http page or a sibling subdomain can plant, is no session there, nor
 * is a plain-http token renamed with the prefix (the key is bound to the
 * name). With the same name twice in `Cookie`, the first wins for `getSession`
 * and for `Auth()` alike: a route of the app never sees another user than the
 * auth routes do.
 */
import { afterEach, expect, test } from "vitest"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { startApp } from "../harness.js"

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

const https = { "x-forwarded-proto": "https" }
const SECURE_SESSION = "__Secure-tessera.session-token"

async function signedIn(origin: string, user: "alice" | "bulky", headers = https) {
  const browser = new HttpBrowser(origin, "/auth", headers)
  const password = integrationUsers[user].password
  expect((await browser.signInWithCredentials({ username: user, password })).status).toBe(302)
  return browser
}

test("on https every cookie is Secure and prefixed; an unprefixed or renamed session cookie is none", async () => {
  const app = await startApp(() => integrationConfig(), { trustProxy: true })
  running.push(app)
  const secure = new HttpBrowser(app.origin, "/auth", https)
  await secure.csrfToken()
  const signIn = await secure.signInWithCredentials({
    username: "alice",
    password: integrationUsers.alice.password,
  })
  const lines = [...signIn.headers.getSetCookie()]
  expect([...secure.jar.keys()].sort()).toEqual(["__Host-tessera.csrf-token", SECURE_SESSION])
  for (const line of lines.filter((l) => !/max-age=0/i.test(l))) expect(line).toMatch(/;\s*Secure/i)

  const plain = await signedIn(app.origin, "alice", {})
  const plainToken = plain.jar.get("tessera.session-token")!
  for (const [name, value] of [
    ["tessera.session-token", plainToken],
    [SECURE_SESSION, plainToken],
  ] as const) {
    const tossed = new HttpBrowser(app.origin, "/auth", https)
    tossed.jar.set(name, value)
    expect(await tossed.session()).toBeNull()
    expect((await tossed.request("/me")).status).toBe(401)
  }
})

test("the same session cookie twice: getSession and Auth() both take the first", async () => {
  const app = await startApp(() => integrationConfig(), { trustProxy: true })
  running.push(app)
  const alice = (await signedIn(app.origin, "alice")).jar.get(SECURE_SESSION)!
  const bulky = await signedIn(app.origin, "bulky")
  const bulkyChunks = [...bulky.jar].filter(([name]) => name.startsWith(`${SECURE_SESSION}.`))
  expect(bulkyChunks.length).toBeGreaterThan(1)
  const chunked = bulkyChunks.map(([name, value]) => `${name}=${value}`).join("; ")
  for (const [cookie, expected] of [
    [`${SECURE_SESSION}=${alice}; ${SECURE_SESSION}=garbage`, "Alice"],
    [`${SECURE_SESSION}=garbage; ${SECURE_SESSION}=${alice}`, null],
    [`${chunked}; ${SECURE_SESSION}=${alice}`, "Alice"],
  ] as const) {
    const headers = { ...https, cookie }
    const session = await fetch(new URL("/auth/session", app.origin), { headers })
    const me = await fetch(new URL("/me", app.origin), { headers })
    const fromAuth = ((await session.json()) as { user?: { name?: string } } | null)?.user?.name
    const fromApp =
      me.status === 200 ? ((await me.json()) as { user: { name: string } }).user.name : null
    expect([fromAuth ?? null, fromApp]).toEqual([expected, expected])
  }
})
