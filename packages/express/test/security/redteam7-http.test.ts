/**
 * Red team, round 7: Express over real HTTP on loopback.
 *
 * - `trust proxy` off: `X-Forwarded-*` change nothing. On: a forwarded
 *   protocol other than http/https, or a forwarded host that is no plain host
 *   name (userinfo, a path, a tab, a list's odd first entry), is refused with
 *   400 instead of becoming the origin of links and forms.
 * - Values that reach `Location` and `Set-Cookie` (a `callbackUrl` with CR/LF,
 *   `;` and attribute names) cannot add a header or a cookie attribute.
 * - Bodies in odd content types, with and without body parsers in front, are
 *   read or refused with a 4xx, never a 500 from ExpressAuth.
 * - `getSession` under concurrency: each request sees its own user.
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

const config = () => integrationConfig({ providers: [anyone], logger: { error: () => {} } })
const apps: Record<
  "plain" | "parsers" | "proxied",
  Awaited<ReturnType<typeof startApp>>
> = {} as never
beforeAll(async () => {
  apps.plain = await startApp(config)
  apps.parsers = await startApp(config, { bodyParsers: true })
  apps.proxied = await startApp(config, { trustProxy: true })
})
afterAll(() => Promise.all(Object.values(apps).map((app) => app.stop())))

/** The origin the sign-in page's credentials form posts to. */
function formOrigin(body: string): string | undefined {
  const action = /action="([^"]*)"/.exec(body)?.[1]
  return action === undefined ? undefined : new URL(action).origin
}

describe("forwarding headers and Host", () => {
  test.each([
    { "x-forwarded-proto": "javascript" },
    { "x-forwarded-proto": "file" },
    { "x-forwarded-host": "a@evil.example" },
    { "x-forwarded-host": "evil.example/x" },
    { "x-forwarded-host": "good.example\tevil.example" },
    { "x-forwarded-host": ", evil.example" },
  ])("trusted proxy, %j: 400, nothing built on it", async (headers) => {
    const host = new URL(apps.proxied.origin).host
    const page = await sendRaw(apps.proxied.origin, {
      target: "/auth/signin",
      headers: { host, ...headers },
    })
    expect(page.status).toBe(400)
    expect(page.body).not.toContain("evil")
  })

  test("proxy not trusted: forwarded host and protocol change nothing", async () => {
    const host = new URL(apps.plain.origin).host
    const page = await sendRaw(apps.plain.origin, {
      target: "/auth/signin",
      headers: { host, "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    })
    expect(page.status).toBe(200)
    expect(formOrigin(page.body)).toBe(apps.plain.origin)
  })

  test.each(["a@evil.example", "evil.example/x", "evil.example\\x", "evil.example:99999"])(
    "Host %s: 400",
    async (host) => {
      const page = await sendRaw(apps.plain.origin, { target: "/auth/signin", headers: { host } })
      expect(page.status).toBe(400)
    },
  )
})

describe("values that reach headers", () => {
  test("a callbackUrl with CR/LF and cookie attributes adds no header and no attribute", async () => {
    for (const app of Object.values(apps)) {
      const b = new HttpBrowser(app.origin)
      const csrfToken = await b.csrfToken()
      const hostile = "/after\r\nSet-Cookie: planted=1; Domain=evil.example\r\nX-Injected: 1"
      const signIn = await b.request("/auth/callback/credentials", {
        form: { username: "ada", password: "pw", csrfToken, callbackUrl: hostile },
      })
      expect(signIn.status).toBe(302)
      const location = signIn.headers.get("location")!
      expect(new URL(location).origin).toBe(app.origin)
      expect(signIn.headers.get("x-injected")).toBeNull()
      const cookies = signIn.headers.getSetCookie()
      expect(cookies.some((c) => c.startsWith("planted="))).toBe(false)
      expect(cookies.some((c) => /domain=evil/i.test(c))).toBe(false)

      const page = await b.request(
        `/auth/signin?callbackUrl=${encodeURIComponent("/x; Domain=evil.example; Path=/a")}`,
      )
      const remembered = page.headers.getSetCookie().find((c) => c.includes("callback-url="))!
      expect(remembered).not.toMatch(/domain=evil/i)
      expect(remembered.match(/; Path=/gi)).toHaveLength(1)
    }
  })
})

describe("bodies", () => {
  test.each([
    ["application/json", "null"],
    ["application/json", "[1,2]"],
    ["application/json", '{"csrfToken":{"toString":1},"callbackUrl":["/a","https://evil"]}'],
    ["multipart/form-data", "--x\r\n"],
    ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data\r\n\r\nv\r\n--x--"],
    ["application/x-www-form-urlencoded", "%zz=%zz&csrfToken=%E0%A4%A"],
    ["application/x-www-form-urlencoded", "csrfToken[a]=1&csrfToken[]=2&callbackUrl[href]=x"],
    ["application/octet-stream", "\u0000\u0001"],
    ["text/plain", "csrfToken=1"],
  ])("%s %j: a 4xx or a redirect, never a 500, with or without parsers", async (type, body) => {
    for (const app of [apps.plain, apps.parsers]) {
      const b = new HttpBrowser(app.origin)
      await b.csrfToken()
      const response = await b.request("/auth/signout", {
        method: "POST",
        headers: { "content-type": type, origin: app.origin },
        body,
      })
      expect(response.status, await response.text()).toBeLessThan(500)
      // Nothing was signed out or in with a token that was never the jar's.
      expect(response.headers.getSetCookie().some((c) => /session-token=[^;]/.test(c))).toBe(false)
    }
  })
})

test("getSession: forty interleaved requests of four users each see their own", async () => {
  const names = ["alice", "bob", "carol", "dave"]
  const browsers = await Promise.all(
    names.map(async (name) => {
      const b = new HttpBrowser(apps.plain.origin)
      expect((await b.signInWithCredentials({ username: name, password: "pw" })).status).toBe(302)
      return b
    }),
  )
  const seen = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const session = (await (await browsers[i % 4]!.request("/me")).json()) as {
        user?: { name?: string }
      }
      return [names[i % 4], session.user?.name]
    }),
  )
  for (const [expected, actual] of seen) expect(actual).toBe(expected)
})
