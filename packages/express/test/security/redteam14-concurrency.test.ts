/**
 * Red team 14 (holds): no cross-request state. Alice, Bulky (a session cookie
 * in chunks) and anonymous visitors hit the app at once, on the auth routes
 * and on a route of the app's that reads the session with `getSession` (each
 * read slides the cookie). Every response carries its own visitor's session
 * and cookies only: replaying a response's `Set-Cookie` lines alone signs in
 * as that visitor, never as another, and a response that sets them is private.
 */
import { afterEach, expect, test } from "vitest"
import { HttpBrowser, integrationConfig, integrationUsers } from "@tessera/testing"
import { startApp } from "../harness.js"

const running: { stop(): Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()))
})

/** Whose session the `Set-Cookie` lines of `response` carry, asked of the app itself. */
async function owner(origin: string, response: Response): Promise<string | null | "none"> {
  const replay = new HttpBrowser(origin)
  const before = replay.jar.size
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";")
    const eq = pair!.indexOf("=")
    const value = pair!.slice(eq + 1).trim()
    if (value && !/max-age=0/i.test(line)) replay.jar.set(pair!.slice(0, eq).trim(), value)
  }
  if (replay.jar.size === before) return "none"
  return (await replay.session())?.user?.name ?? null
}

test("concurrent requests of two users and anonymous visitors each get only their own session and cookies", async () => {
  const app = await startApp(() =>
    integrationConfig({ logger: { error: () => {} }, session: { updateAge: 0 } }),
  )
  running.push(app)
  const alice = new HttpBrowser(app.origin)
  const bulky = new HttpBrowser(app.origin)
  await alice.signInWithCredentials({
    username: "alice",
    password: integrationUsers.alice.password,
  })
  await bulky.signInWithCredentials({
    username: "bulky",
    password: integrationUsers.bulky.password,
  })
  expect(alice.jar.has("tessera.session-token")).toBe(true)
  expect(
    [...bulky.jar.keys()].filter((k) => k.startsWith("tessera.session-token.")).length,
  ).toBeGreaterThan(1)

  const visitors = [
    { name: "Alice", browser: alice },
    { name: "Bulky", browser: bulky },
    { name: null, browser: null },
  ]
  const rounds = Array.from({ length: 20 }, (_, i) => visitors[i % 3]!).flatMap((v) =>
    ["/me", "/auth/session"].map(async (path) => {
      // A fresh copy of the visitor's jar, so nothing a response sets changes the others' requests.
      const b = new HttpBrowser(app.origin)
      if (v.browser) for (const [k, val] of v.browser.jar) b.jar.set(k, val)
      const response = await b.request(path)
      const body = (await response.json()) as { user?: { name?: string } } | null
      return { v, path, response, name: body?.user?.name ?? null }
    }),
  )
  const results = await Promise.all(rounds)
  for (const { v, response, name } of results) {
    expect(name).toBe(v.name)
    const carried = await owner(app.origin, response)
    if (v.name === null) expect(carried).toBe("none")
    else expect(carried).toBe(v.name)
    if (response.headers.getSetCookie().length > 0)
      expect(response.headers.get("cache-control")).toMatch(/private|no-store/)
  }
})
