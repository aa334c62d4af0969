/**
 * Red team, round 7: Hono over real HTTP on loopback, where round 6 left off.
 *
 * - A `Host` (or absolute-form target) that is no plain host name never
 *   becomes the origin of a page's forms.
 * - Values that reach `Location` and `Set-Cookie` (a `callbackUrl` with CR/LF,
 *   `;` and attribute names) cannot add a header or a cookie attribute.
 * - Bodies in odd content types are read or refused with a 4xx, never a 500.
 * - `verifyAuth()` under concurrency: each request sees its own user and token.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import Credentials from "@tessera/core/providers/credentials"
import { HttpBrowser, integrationConfig, sendRaw } from "@tessera/testing"
import { startApp } from "../harness.js"

/** Anyone with the password "pw" signs in as the user named by `username` (id = the name). */
const anyone = Credentials({
  credentials: { username: { label: "Username" }, password: { label: "Password" } },
  authorize: ({ username, password }) =>
    password === "pw" ? { id: String(username), name: String(username) } : null,
})

let app: Awaited<ReturnType<typeof startApp>>
beforeAll(async () => {
  app = await startApp(() =>
    integrationConfig({ providers: [anyone], logger: { error: () => {} } }),
  )
})
afterAll(() => app.stop())

describe("hosts", () => {
  test.each(["a@evil.example", "evil.example/x", "evil.example\\x", "evil.example:99999"])(
    "Host %s: refused, nothing built on it",
    async (host) => {
      const page = await sendRaw(app.origin, { target: "/auth/signin", headers: { host } })
      expect(page.status).toBeGreaterThanOrEqual(400)
      expect(page.status).toBeLessThan(500)
      expect(page.body).not.toMatch(/action="[^"]*evil/)
    },
  )
})

describe("values that reach headers", () => {
  test("a callbackUrl with CR/LF and cookie attributes adds no header and no attribute", async () => {
    const b = new HttpBrowser(app.origin)
    const csrfToken = await b.csrfToken()
    const hostile = "/after\r\nSet-Cookie: planted=1; Domain=evil.example\r\nX-Injected: 1"
    const signIn = await b.request("/auth/callback/credentials", {
      form: { username: "ada", password: "pw", csrfToken, callbackUrl: hostile },
    })
    expect(signIn.status).toBe(302)
    const location = signIn.headers.get("location")!
    expect(location).not.toMatch(/[\r\n]/)
    expect(new URL(location).origin).toBe(app.origin)
    expect(signIn.headers.get("x-injected")).toBeNull()
    const cookies = signIn.headers.getSetCookie()
    expect(cookies.some((c) => c.startsWith("planted="))).toBe(false)
    expect(cookies.some((c) => /domain=evil/i.test(c))).toBe(false)

    // The sign-in page remembers a callbackUrl in a cookie: its value is encoded, not attributes.
    const page = await b.request(
      `/auth/signin?callbackUrl=${encodeURIComponent("/x; Domain=evil.example; Path=/a")}`,
    )
    expect(page.status).toBe(200)
    const remembered = page.headers.getSetCookie().find((c) => c.includes("callback-url="))!
    expect(remembered).not.toMatch(/domain=evil/i)
    expect(remembered.match(/; Path=/gi)).toHaveLength(1)
  })
})

describe("bodies", () => {
  test.each([
    ["application/json", "null"],
    ["application/json", "[1,2]"],
    ["application/json", "{bad"],
    ["application/json", '{"csrfToken":{"toString":1},"callbackUrl":["/a","https://evil"]}'],
    ["multipart/form-data", "--x\r\n"],
    ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data\r\n\r\nv\r\n--x--"],
    ["application/x-www-form-urlencoded", "%zz=%zz&csrfToken=%E0%A4%A"],
    ["application/octet-stream", "\u0000\u0001"],
  ])("%s %j: a 4xx or a redirect, never a 500", async (type, body) => {
    const b = new HttpBrowser(app.origin)
    await b.csrfToken()
    const response = await b.request("/auth/signout", {
      method: "POST",
      headers: { "content-type": type, origin: app.origin },
      body,
    })
    expect(response.status, await response.text()).toBeLessThan(500)
  })
})

test("verifyAuth(): forty interleaved requests of four users each see their own", async () => {
  const names = ["alice", "bob", "carol", "dave"]
  const browsers = await Promise.all(
    names.map(async (name) => {
      const b = new HttpBrowser(app.origin)
      const response = await b.signInWithCredentials({ username: name, password: "pw" })
      expect(response.status).toBe(302)
      return b
    }),
  )
  const seen = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const response = await browsers[i % 4]!.request("/me")
      const session = (await response.json()) as { user?: { name?: string } }
      return [names[i % 4], session.user?.name]
    }),
  )
  for (const [expected, actual] of seen) expect(actual).toBe(expected)
})
