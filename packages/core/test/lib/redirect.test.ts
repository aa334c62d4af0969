/**
 * callbackUrl: from the body, the query or the cookie, always through the
 * `redirect` callback, whose default keeps the user on the app's origin.
 */
import { describe, expect, test } from "vitest"
import fc from "fast-check"
import { Auth, skipCSRFCheck } from "@tessera/core"
import { defaultCallbacks } from "../../src/config/callbacks.js"
import { Jar, ORIGIN, csrfToken, get, makeConfig, post, setCookie } from "../harness/index.js"

/** Forms that have been used to leave an origin. None may. */
export const hostile = [
  "//evil.example",
  "//evil.example/path?x=1",
  "///evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\t/evil.example",
  " //evil.example",
  "\n//evil.example",
  "https:evil.example",
  "https:/evil.example",
  "http:\\\\evil.example",
  "https://evil.example",
  "HTTPS://EVIL.EXAMPLE",
  "https://evil.example/http://localhost:3000",
  "http://localhost:3000@evil.example",
  "http://localhost:3000.evil.example",
  "//localhost:3000@evil.example",
  "http://user:pass@localhost:3000/x",
  "http://user@localhost:3000/x",
  "https://localhost:3000/",
  "http://localhost:3001/",
  "http://127.0.0.1:3000/",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\nscript:alert(1)",
  "\u0000javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox",
  "ftp://evil.example",
  "http://evil.example#http://localhost:3000",
  "http://[::1]:3000/",
  "http://％２Ｆevil.example",
  "http://evil.example%2F@localhost:3000",
  "x".repeat(5000),
]

/** Forms that stay on the origin, and where they must end up. */
const friendly: Array<[string, string]> = [
  ["/dashboard", `${ORIGIN}/dashboard`],
  ["/dashboard?tab=1#top", `${ORIGIN}/dashboard?tab=1#top`],
  ["dashboard", `${ORIGIN}/dashboard`],
  ["?q=1", `${ORIGIN}/?q=1`],
  [`${ORIGIN}/account`, `${ORIGIN}/account`],
  ["%2F%2Fevil.example", `${ORIGIN}/%2F%2Fevil.example`],
  ["/%2F%2Fevil.example", `${ORIGIN}/%2F%2Fevil.example`],
  ["/..//evil.example", `${ORIGIN}//evil.example`],
  ["/%5Cevil.example", `${ORIGIN}/%5Cevil.example`],
  // A backslash is a slash in http(s) URLs, for browsers and WHATWG URL alike: userinfo never starts.
  ["http://localhost:3000\\@evil.example", `${ORIGIN}/@evil.example`],
]

function location(response: Response): string {
  return response.headers.get("location") ?? ""
}

async function credentialsSignIn(callbackUrl: string) {
  const { config } = makeConfig()
  const { token, jar } = await csrfToken(config)
  return Auth(
    post(
      "/auth/callback/credentials",
      { username: "ada", password: "correct horse", csrfToken: token, callbackUrl },
      { jar },
    ),
    config,
  )
}

describe("the default redirect callback", () => {
  test.each(hostile.map((h) => [JSON.stringify(h).slice(0, 60), h]))(
    "%s never leaves the origin (sign-in redirect)",
    async (_label, url) => {
      const response = await credentialsSignIn(url)
      expect(response.status).toBe(302)
      expect(location(response)).toBe(ORIGIN)
    },
  )

  test.each(friendly)("%s -> %s", async (url, expected) => {
    const response = await credentialsSignIn(url)
    expect(location(response)).toBe(expected)
    expect(new URL(location(response)).origin).toBe(ORIGIN)
  })

  test.each(hostile.slice(0, 20))("sign-out with callbackUrl %j stays home", async (url) => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post("/auth/signout", { csrfToken: token, callbackUrl: url }, { jar }),
      config,
    )
    expect(location(response)).toBe(ORIGIN)
  })

  test.each(hostile.slice(0, 20))("the sign-in page does not remember %j", async (url) => {
    const { config } = makeConfig()
    const response = await Auth(get(`/auth/signin?callbackUrl=${encodeURIComponent(url)}`), config)
    const html = await response.text()
    expect(html).toContain(`name="callbackUrl" value="${ORIGIN}"`)
    const cookie = setCookie(response, "tessera.callback-url")
    expect(cookie?.value ?? ORIGIN).toBe(ORIGIN)
  })

  test("a hostile callback-URL cookie (planted by a sibling site) is not followed", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    jar.set("tessera.callback-url", "https://evil.example/phish")
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token },
        { jar },
      ),
      config,
    )
    expect(location(response)).toBe(ORIGIN)
  })

  test("the JSON form (X-Auth-Return-Redirect) is filtered too", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        {
          username: "ada",
          password: "correct horse",
          csrfToken: token,
          callbackUrl: "//evil.example",
        },
        {
          jar,
          headers: { "X-Auth-Return-Redirect": "1" },
        },
      ),
      config,
    )
    expect(await response.json()).toEqual({ url: ORIGIN })
  })
})

describe("where the callback URL comes from", () => {
  test("body callbackUrl (or redirectTo) beats the query, which beats the cookie", async () => {
    const { config } = makeConfig()
    const run = async (body: Record<string, string>, query: string, cookie?: string) => {
      const { token, jar } = await csrfToken(config)
      if (cookie) jar.set("tessera.callback-url", cookie)
      const response = await Auth(
        post(
          `/auth/callback/credentials${query}`,
          { username: "ada", password: "correct horse", csrfToken: token, ...body },
          { jar },
        ),
        config,
      )
      return location(response)
    }
    expect(
      await run({ callbackUrl: "/from-body" }, "?callbackUrl=%2Ffrom-query", "/from-cookie"),
    ).toBe(`${ORIGIN}/from-body`)
    expect(
      await run({ redirectTo: "/redirect-to" }, "?callbackUrl=%2Ffrom-query", "/from-cookie"),
    ).toBe(`${ORIGIN}/redirect-to`)
    expect(await run({}, "?callbackUrl=%2Ffrom-query", "/from-cookie")).toBe(`${ORIGIN}/from-query`)
    expect(await run({}, "", "/from-cookie")).toBe(`${ORIGIN}/from-cookie`)
    expect(await run({}, "")).toBe(ORIGIN)
  })

  test("the sign-in page remembers the callback URL in a cookie, used by the sign-in, then cleared", async () => {
    const { config } = makeConfig()
    const jar = new Jar()
    const page = await Auth(get("/auth/signin?callbackUrl=%2Fafter-login", { jar }), config)
    jar.update(page)
    expect(jar.get("tessera.callback-url")).toBe(`${ORIGIN}/after-login`)
    const { token } = await csrfToken(config, jar)
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token },
        { jar },
      ),
      config,
    )
    expect(location(response)).toBe(`${ORIGIN}/after-login`)
    jar.update(response)
    expect(jar.get("tessera.callback-url")).toBeUndefined()
  })
})

describe("a custom redirect callback", () => {
  test("receives url and baseUrl and decides", async () => {
    const seen: unknown[] = []
    const { config } = makeConfig({
      callbacks: {
        redirect: ({ url, baseUrl }) => {
          seen.push({ url, baseUrl })
          return url.startsWith("https://partner.example/") ? url : baseUrl
        },
      },
    })
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        {
          username: "ada",
          password: "correct horse",
          csrfToken: token,
          callbackUrl: "https://partner.example/x",
        },
        { jar },
      ),
      config,
    )
    expect(location(response)).toBe("https://partner.example/x")
    expect(seen).toContainEqual({ url: "https://partner.example/x", baseUrl: ORIGIN })
  })
})

describe("signIn callback returning a URL", () => {
  test("goes through the redirect callback: a path is followed, another site is not", async () => {
    let target = "/welcome"
    const { config } = makeConfig({ callbacks: { signIn: () => target } })
    const go = async () => {
      const { token, jar } = await csrfToken(config)
      return Auth(
        post(
          "/auth/callback/credentials",
          { username: "ada", password: "correct horse", csrfToken: token },
          { jar },
        ),
        config,
      )
    }
    const first = await go()
    expect(location(first)).toBe(`${ORIGIN}/welcome`)
    expect(setCookie(first, "tessera.session-token")).toBeUndefined()
    target = "https://evil.example"
    expect(location(await go())).toBe(ORIGIN)
  })
})

// Property-based (fast-check): whatever the callback URL, the user stays on the origin.

/** Pieces that hostile URLs are made of; combined at random they cover the known tricks and more. */
const fragments = [
  "/",
  "//",
  "///",
  "\\",
  "\\\\",
  "/\\",
  "\t",
  "\n",
  "\r",
  " ",
  "\u0000",
  "\u3002",
  "\uFF0F",
  "%2F",
  "%2f",
  "%5C",
  "%09",
  "%00",
  "@",
  ":",
  ".",
  "..",
  "#",
  "?",
  "&",
  "=",
  "http:",
  "https:",
  "HTTPS:",
  "javascript:",
  "data:",
  "ftp:",
  "blob:",
  "file:",
  "evil.example",
  "localhost",
  "localhost:3000",
  "127.0.0.1",
  "[::1]",
  "user:pass@",
  "%40",
  "xn--",
  "example",
  "3000",
  "a",
]
const hostileUrl = fc
  .array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(""))
const anyUrl = fc.oneof(
  hostileUrl,
  fc.string(),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.webUrl().map((u) => `//${u.replace(/^https?:\/\//, "")}`),
)

/** True if a browser following `location` stays on ORIGIN: checked on the string, not with the URL parser under test. */
function staysHome(location: string): boolean {
  return (
    location === ORIGIN ||
    location.startsWith(`${ORIGIN}/`) ||
    location.startsWith(`${ORIGIN}?`) ||
    location.startsWith(`${ORIGIN}#`)
  )
}

describe("redirect rules", () => {
  test("the default redirect callback only ever answers the origin or a URL under it", async () => {
    await fc.assert(
      fc.asyncProperty(anyUrl, async (url) => {
        const result = await defaultCallbacks.redirect({ url, baseUrl: ORIGIN })
        expect(staysHome(result)).toBe(true)
        const parsed = new URL(result)
        expect(parsed.origin).toBe(ORIGIN)
        expect(parsed.username + parsed.password).toBe("")
      }),
      { numRuns: 3000 },
    )
  })

  test("through Auth(): sign-in redirects and the sign-in page's callback URL stay home", async () => {
    const { config } = makeConfig({ skipCSRFCheck })
    await fc.assert(
      fc.asyncProperty(anyUrl, fc.constantFrom("body", "query", "cookie"), async (url, where) => {
        const query = where === "query" ? `?callbackUrl=${encodeURIComponent(url)}` : ""
        const headers: Record<string, string> = { "content-type": "application/json" }
        if (where === "cookie") {
          // Only values a browser could send in a Cookie header.
          const value = encodeURIComponent(url)
          headers.cookie = `tessera.callback-url=${value}`
        }
        const body = JSON.stringify({
          username: "ada",
          password: "correct horse",
          ...(where === "body" ? { callbackUrl: url } : {}),
        })
        const response = await Auth(
          new Request(`${ORIGIN}/auth/callback/credentials${query}`, {
            method: "POST",
            headers,
            body,
          }),
          config,
        )
        expect(response.status).toBe(302)
        expect(staysHome(response.headers.get("location")!)).toBe(true)

        const page = await Auth(
          new Request(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(url)}`),
          config,
        )
        const html = await page.text()
        const value = html.match(/name="callbackUrl" value="([^"]*)"/)![1]!
        const unescaped = value
          .replace(/&amp;/g, "&")
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&#96;/g, "`")
        expect(staysHome(unescaped)).toBe(true)
        // The page's own scripts carry its nonce; nothing of the callback URL becomes one.
        expect(html).not.toMatch(/<script(?! nonce=")/i)
      }),
      { numRuns: 300 },
    )
  })
})
