/**
 * Property-based tests (fast-check): whatever the callback URL, the user stays
 * on the origin; whatever the request (path, method, cookies, body, host
 * headers), `Auth()` answers with a Response and never a 5xx.
 */
import fc from "fast-check"
import { describe, expect, test } from "vitest"
import { Auth, skipCSRFCheck } from "@tessera/core"
import { defaultCallbacks } from "../src/config/callbacks.js"
import { ORIGIN, makeConfig } from "./helpers.js"

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
        expect(html).not.toMatch(/<script/i)
      }),
      { numRuns: 300 },
    )
  })
})

/** Characters a header value may hold (no CR, LF or NUL), weighted towards the ones parsers trip on. */
const headerChar = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(..."abcXYZ019=;,|.%-_ \"'\\/:@[]{}()<>?#&+*$!~`^\t") },
  { weight: 1, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)) },
)
const headerValue = fc.string({ unit: headerChar, maxLength: 120 })
const cookieName = fc.constantFrom(
  "tessera.session-token",
  "tessera.session-token.0",
  "tessera.session-token.1",
  "tessera.csrf-token",
  "tessera.callback-url",
  "__Host-tessera.csrf-token",
  "__Secure-tessera.session-token",
  "__proto__",
  "x",
)
const cookieHeader = fc.oneof(
  headerValue,
  fc
    .array(fc.tuple(cookieName, headerValue), { maxLength: 5 })
    .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join("; ")),
)

const actions = [
  "callback",
  "csrf",
  "error",
  "providers",
  "session",
  "signin",
  "signout",
  "verify-request",
  "webauthn-options",
]
const segment = fc.oneof(
  fc.constantFrom(
    ...actions,
    "credentials",
    "unknown",
    "",
    "..",
    ".",
    "%2F",
    "%00",
    "%E0%A4%A",
    "a".repeat(70),
  ),
  fc.string({ unit: fc.constantFrom(..."abcAZ09-_.~%:@!$&'()*+,;=[]"), maxLength: 12 }),
)
const path = fc
  .tuple(
    fc.constantFrom("/auth", "/auth/", "/", "/other", "/AUTH"),
    fc.array(segment, { maxLength: 3 }),
    fc.option(headerValue),
  )
  .map(
    ([base, segments, query]) =>
      `${base}${base.endsWith("/") ? "" : "/"}${segments.join("/")}${query ? `?${encodeURIComponent(query)}&callbackUrl=${encodeURIComponent(query)}` : ""}`,
  )

const contentType = fc.constantFrom(
  undefined,
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "multipart/form-data",
  "text/plain",
  "application/xml",
  "application/json; charset=latin1",
  "APPLICATION/JSON",
  ";;",
)
const body = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.json({ maxDepth: 3 }),
  fc
    .dictionary(
      fc.constantFrom(
        "csrfToken",
        "callbackUrl",
        "username",
        "password",
        "data",
        "redirectTo",
        "__proto__",
        "email",
      ),
      fc.oneof(fc.string(), fc.jsonValue()),
    )
    .map((o) => JSON.stringify(o)),
  fc
    .dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 }))
    .map((o) => new URLSearchParams(o).toString()),
  fc.uint8Array({ maxLength: 200 }),
)

describe("request parsing", () => {
  test("random requests: always a Response, never a 5xx, 4xx answers explain themselves", async () => {
    const lenient = makeConfig({ skipCSRFCheck }).config
    const strict = makeConfig().config
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          method: fc.constantFrom("GET", "POST", "POST", "PUT", "HEAD", "OPTIONS", "DELETE"),
          path,
          cookie: fc.option(cookieHeader),
          contentType,
          body,
          forwardedHost: fc.option(
            fc.oneof(
              headerValue,
              fc.constantFrom("app.example", "app.example:8443", "[::1]:3000", "a, b"),
            ),
          ),
          forwardedProto: fc.option(fc.constantFrom("https", "http", "ftp", "https, http", "")),
          origin: fc.option(fc.constantFrom(ORIGIN, "https://evil.example", "null")),
          returnRedirect: fc.boolean(),
          strictCsrf: fc.boolean(),
        }),
        async (r) => {
          let request: Request
          try {
            const headers = new Headers()
            if (r.cookie !== null) headers.set("cookie", r.cookie)
            if (r.contentType) headers.set("content-type", r.contentType)
            if (r.forwardedHost !== null) headers.set("x-forwarded-host", r.forwardedHost)
            if (r.forwardedProto !== null) headers.set("x-forwarded-proto", r.forwardedProto)
            if (r.origin !== null) headers.set("origin", r.origin)
            if (r.returnRedirect) headers.set("x-auth-return-redirect", "1")
            const hasBody = r.method !== "GET" && r.method !== "HEAD"
            request = new Request(new URL(r.path, ORIGIN), {
              method: r.method,
              headers,
              body: hasBody ? r.body : undefined,
            })
          } catch {
            // Not a request a server could receive (the Request constructor refused it).
            fc.pre(false)
            return
          }
          const response = await Auth(request, r.strictCsrf ? strict : lenient)
          expect(response).toBeInstanceOf(Response)
          // The error page answers 500 for Configuration and unknown values by design.
          const errorPage =
            response.headers.get("content-type")?.startsWith("text/html") &&
            /^\/auth\/error\/?$/.test(new URL(request.url).pathname)
          if (!errorPage) expect(response.status, `${r.method} ${request.url}`).toBeLessThan(500)
          if (
            response.status >= 400 &&
            r.method !== "HEAD" &&
            response.headers.get("content-type") === "application/json"
          ) {
            const json = (await response.json()) as { error?: string; message?: string } | null
            if (json !== null) expect(typeof json.error).toBe("string")
          }
          const location = response.headers.get("location")
          if (location) expect(new URL(location, ORIGIN).protocol).toMatch(/^https?:$/)
        },
      ),
      { numRuns: 1500 },
    )
  })
})
