/**
 * No cross-request state in an integration: two signed-in users (one whose
 * session cookie comes in chunks) and anonymous visitors hit the app at once,
 * every read sliding the session. Each response must carry its own visitor's
 * session and cookies only.
 * @module
 */
import { expect } from "vitest"
import { HttpBrowser } from "./http-browser.js"
import { integrationUsers } from "./integration-config.js"

/** Whose session the `Set-Cookie` lines of `response` carry, asked of the app itself. */
async function cookieOwner(origin: string, response: Response): Promise<string | null | "none"> {
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

/**
 * Signs Alice and Bulky in (credentials of `integrationConfig()`), then sends 20 rounds of
 * concurrent GETs to each of `paths` as Alice, Bulky or nobody, and expects:
 * - each 200 answer's JSON names its own visitor's user (`{ user: { name } }`), anything
 *   else counting as no user (a 401 for nobody);
 * - the `Set-Cookie` lines of each answer, replayed alone, sign in as that visitor (none for
 *   nobody), and an answer that sets cookies is not cacheable by a shared cache.
 *
 * @param origin The app's origin, whose configuration slides the session on every read
 *   (`session: { updateAge: 0 }`), so that every answer sets cookies.
 * @param paths Routes that answer the session as JSON.
 * @see [docs/testing.md: conformance suites](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#conformance-suites)
 */
export async function expectOwnSessionsUnderLoad(origin: string, paths: string[]): Promise<void> {
  const alice = new HttpBrowser(origin)
  const bulky = new HttpBrowser(origin)
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
    paths.map(async (path) => {
      // A fresh copy of the visitor's jar, so nothing a response sets changes the others' requests.
      const b = new HttpBrowser(origin)
      if (v.browser) for (const [k, val] of v.browser.jar) b.jar.set(k, val)
      const response = await b.request(path)
      const body =
        response.status === 200
          ? ((await response.json()) as { user?: { name?: string } } | null)
          : null
      return { v, response, name: body?.user?.name ?? null }
    }),
  )
  for (const { v, response, name } of await Promise.all(rounds)) {
    expect(name).toBe(v.name)
    expect(await cookieOwner(origin, response)).toBe(v.name ?? "none")
    if (response.headers.getSetCookie().length > 0)
      expect(response.headers.get("cache-control")).toMatch(/private|no-store/)
  }
}
