/**
 * Request parsing: malformed bodies, cookies and hosts get a clear 4xx (never
 * a 500 or a throw), and host headers are trusted only with `trustHost`.
 */
import { describe, expect, test } from "vitest"
import Email from "@tessera/core/providers/email"
import fc from "fast-check"
import { Auth, skipCSRFCheck } from "@tessera/core"
import { MAX_BODY_BYTES } from "../../src/http/request.js"
import {
  ORIGIN,
  csrfToken,
  get,
  makeConfig,
  post,
  setCookie,
  setCookies,
} from "../harness/index.js"

const CALLBACK = `${ORIGIN}/auth/callback/credentials`

async function withCsrf() {
  const { config, log } = makeConfig()
  const { token, jar } = await csrfToken(config)
  return { config, log, token, cookie: jar.header() }
}

function raw(
  body: BodyInit,
  contentType: string | undefined,
  cookie: string,
  extra: Record<string, string> = {},
) {
  const headers: Record<string, string> = { cookie, ...extra }
  if (contentType) headers["content-type"] = contentType
  return new Request(CALLBACK, { method: "POST", headers, body, duplex: "half" } as RequestInit)
}

async function expectClientError(
  response: Response,
  status: number,
  type: string,
  message: RegExp,
) {
  expect(response.status).toBe(status)
  const body = (await response.json()) as { error: string; message: string }
  expect(body.error).toBe(type)
  expect(body.message).toMatch(message)
  expect(setCookies(response)).toEqual([])
}

describe("bodies", () => {
  test.each([
    ["malformed JSON", "{not json", "application/json", 400, /Malformed JSON/],
    ["a JSON array", "[1,2]", "application/json", 400, /must be an object/],
    ["JSON null", "null", "application/json", 400, /must be an object/],
    ["a JSON string", '"x"', "application/json; charset=utf-8", 400, /must be an object/],
    ["an unsupported type", "<x/>", "application/xml", 415, /Unsupported content type/],
    [
      "malformed multipart",
      "garbage",
      "multipart/form-data; boundary=zzz",
      400,
      /Malformed form body/,
    ],
  ])("%s -> %i", async (_name, body, type, status, message) => {
    const { config, cookie, log } = await withCsrf()
    await expectClientError(
      await Auth(raw(body, type, cookie), config),
      status,
      status === 415 ? "InvalidRequest" : "InvalidRequest",
      message,
    )
    expect(log.errors).toEqual([])
  })

  test("invalid UTF-8 -> 400", async () => {
    const { config, cookie } = await withCsrf()
    await expectClientError(
      await Auth(
        raw(new Uint8Array([0x75, 0x3d, 0xff, 0xfe]), "application/x-www-form-urlencoded", cookie),
        config,
      ),
      400,
      "InvalidRequest",
      /Unreadable/,
    )
  })

  test("a declared Content-Length over the limit -> 413 before reading", async () => {
    const { config, cookie } = await withCsrf()
    const body = "a=" + "x".repeat(MAX_BODY_BYTES)
    await expectClientError(
      await Auth(
        raw(body, "application/x-www-form-urlencoded", cookie, {
          "content-length": String(body.length),
        }),
        config,
      ),
      413,
      "InvalidRequest",
      /too large/,
    )
  })

  test("a streamed body over the limit (no Content-Length) is cut off with 413", async () => {
    const { config, cookie } = await withCsrf()
    let pulled = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x61))
        if (pulled > 1000) controller.close()
      },
    })
    await expectClientError(
      await Auth(raw(stream, "application/x-www-form-urlencoded", cookie), config),
      413,
      "InvalidRequest",
      /too large/,
    )
    expect(pulled).toBeLessThan(10)
  })

  test("a body already read by someone else -> 400, not a crash", async () => {
    const { config, cookie } = await withCsrf()
    const request = raw("username=ada", "application/x-www-form-urlencoded", cookie)
    await request.text()
    const response = await Auth(request, config)
    expect(response.status).toBe(400)
  })

  test("forms: urlencoded, multipart, or no content type at all", async () => {
    for (const make of [
      (t: string) =>
        [
          `username=ada&password=correct+horse&csrfToken=${t}`,
          "application/x-www-form-urlencoded",
        ] as const,
      (t: string) => [`username=ada&password=correct+horse&csrfToken=${t}`, undefined] as const,
      (t: string) => {
        const form = new FormData()
        form.set("username", "ada")
        form.set("password", "correct horse")
        form.set("csrfToken", t)
        return [form, undefined] as const
      },
    ]) {
      const { config, cookie, token } = await withCsrf()
      const [body, type] = make(token)
      const response = await Auth(raw(body, type, cookie), config)
      expect(response.status).toBe(302)
      expect(setCookie(response, "tessera.session-token")).toBeDefined()
    }
  })

  test("JSON fields of any type reach authorize without breaking the flow", async () => {
    const { config, cookie, token } = await withCsrf()
    // The identifier must be a string (the credentials lockout counts under it); the rest may be anything.
    const body = JSON.stringify({
      csrfToken: token,
      username: "ada",
      remember: { $ne: null },
      password: ["a"],
      callbackUrl: 42,
      __proto__: { x: 1 },
    })
    const response = await Auth(raw(body, "application/json", cookie), config)
    expect(response.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`,
    )
  })

  test("a non-string csrfToken is refused", async () => {
    const { config, cookie, token } = await withCsrf()
    const response = await Auth(
      raw(
        JSON.stringify({ csrfToken: [token], username: "ada", password: "correct horse" }),
        "application/json",
        cookie,
      ),
      config,
    )
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=Signin`)
  })
})

describe("cookies", () => {
  test.each([
    "=;;; ===; a",
    "tessera.session-token=%E0%A4%A",
    "tessera.session-token=; tessera.session-token=x",
    "tessera.session-token.0=abc; tessera.session-token.2=def",
    "tessera.csrf-token=%7C%7C%7C",
    "tessera.csrf-token=" + "a".repeat(64) + "%7C",
    "__proto__=1; constructor=2; toString=3",
    "a=" + "b".repeat(8000),
  ])("%j: a normal answer, never a 500", async (cookie) => {
    const { config } = makeConfig()
    for (const path of ["/auth/session", "/auth/csrf", "/auth/signin", "/auth/providers"]) {
      const response = await Auth(get(path, { headers: { cookie } }), config)
      expect(response.status, path).toBe(200)
    }
  })
})

describe("hosts", () => {
  test("with neither a canonical url nor trustHost the origin is unknown: a configuration error, logged once", async () => {
    const { config, log } = makeConfig({ trustHost: false })
    const api = await Auth(get("/auth/session"), config)
    expect(api.status).toBe(500)
    expect(((await api.json()) as { message: string }).message).toMatch(/server configuration/)
    const page = await Auth(get("/auth/signin"), config)
    expect(page.status).toBe(500)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(await page.text()).toContain("Server error")
    expect(log.errors.map((e) => (e as { type?: string }).type)).toEqual(["UntrustedHost"])
    expect(log.errors[0]!.message).toMatch(/AUTH_URL.*trustHost/)
  })

  test("without trustHost, forwarded headers are not used for anything: the request is refused", async () => {
    const { config } = makeConfig({ trustHost: false })
    const headers = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }
    for (const path of ["/auth/providers", "/auth/csrf", "/auth/signin"]) {
      const response = await Auth(get(path, { headers }), config)
      expect(response.status).toBe(500)
      expect(response.headers.getSetCookie()).toEqual([])
      expect(response.headers.get("location")).toBeNull()
      expect(await response.text()).not.toContain("evil.example")
    }
  })

  test("X-Forwarded-Host and -Proto are honoured with trustHost", async () => {
    const { config } = makeConfig()
    const response = await Auth(
      get("/auth/providers", {
        headers: { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" },
      }),
      config,
    )
    const list = (await response.json()) as Record<string, { signinUrl: string }>
    expect(list.credentials!.signinUrl).toBe("https://app.example/auth/signin/credentials")
  })

  test("only the first of several forwarded values counts", async () => {
    const { config } = makeConfig()
    const response = await Auth(
      get("/auth/providers", {
        headers: {
          "x-forwarded-host": "first.example, second.example",
          "x-forwarded-proto": "https, http",
        },
      }),
      config,
    )
    expect(
      ((await response.json()) as Record<string, { signinUrl: string }>).credentials!.signinUrl,
    ).toBe("https://first.example/auth/signin/credentials")
  })

  test("a same-origin check uses the forwarded origin", async () => {
    const { config } = makeConfig()
    const headers = { "x-forwarded-host": "app.example", "x-forwarded-proto": "https" }
    const csrf = await Auth(get("/auth/csrf", { headers }), config)
    const cookie = setCookie(csrf, "__Host-tessera.csrf-token")!
    const { csrfToken: token } = (await csrf.json()) as { csrfToken: string }
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token },
        {
          headers: {
            ...headers,
            origin: "https://app.example",
            cookie: `${cookie.name}=${encodeURIComponent(cookie.value)}`,
          },
        },
      ),
      config,
    )
    expect(response.headers.get("location")).toBe("https://app.example")
  })

  test.each([
    [{ "x-forwarded-host": "evil.example/path" }, /host/],
    [{ "x-forwarded-host": "evil.example?x" }, /host/],
    [{ "x-forwarded-host": "a b" }, /host/],
    [{ "x-forwarded-host": "user@evil.example" }, /host/],
    [{ "x-forwarded-host": "evil.example:99999999" }, /host/],
    [{ "x-forwarded-host": "evil.example:99999" }, /host/],
    [{ "x-forwarded-host": "[::1" }, /host/],
    [{ "x-forwarded-host": "[zz::1]" }, /host/],
    [{ "x-forwarded-proto": "javascript" }, /X-Forwarded-Proto/],
    [{ "x-forwarded-proto": "ftp" }, /X-Forwarded-Proto/],
  ])("malformed %j -> 400", async (headers, message) => {
    const { config, log } = makeConfig()
    await expectClientError(
      await Auth(get("/auth/session", { headers }), config),
      400,
      "InvalidRequest",
      message,
    )
    expect(log.errors).toEqual([])
  })

  test("a request URL without a host -> 400", async () => {
    const { config } = makeConfig()
    for (const url of ["file:///auth/session", "data:text/plain,/auth/session"]) {
      const response = await Auth(new Request(url), config)
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
    }
  })
})

// Property-based (fast-check): whatever the request (path, method, cookies, body, host
// headers), `Auth()` answers with a Response and never a 5xx.

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

describe("random requests against every provider type", () => {
  test("e-mail, passkey and OAuth routes never answer 5xx to client input", async () => {
    const fc = (await import("fast-check")).default
    const { skipCSRFCheck } = await import("@tessera/core")
    const Passkey = (await import("@tessera/core/providers/passkey")).default
    const { MemoryAdapter } = await import("@tessera/testing")
    const adapter = MemoryAdapter()
    const make = (skip: boolean) =>
      makeConfig({
        adapter,
        ...(skip ? { skipCSRFCheck } : {}),
        providers: [
          Email({ sendVerificationRequest: () => {} }),
          Passkey(),
          {
            id: "plain",
            name: "Plain",
            type: "oauth",
            clientId: "client",
            clientSecret: "secret",
            authorization: { url: "https://idp.example/authorize" },
            token: { url: "https://idp.example/token" },
            userinfo: { url: "https://idp.example/userinfo" },
          } as any,
        ],
      }).config
    const configs = [make(true), make(false)]
    const text = fc.string({ maxLength: 40 })
    const field = fc.oneof(
      text,
      fc.jsonValue({ maxDepth: 2 }),
      fc.constant(null),
      fc.constant("null"),
      fc.constant("[]"),
    )
    const body = fc.dictionary(
      fc.constantFrom(
        "csrfToken",
        "email",
        "token",
        "action",
        "data",
        "callbackUrl",
        "code",
        "state",
        "iss",
        "error",
      ),
      field,
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("signin", "callback", "webauthn-options"),
        fc.constantFrom("email", "passkey", "plain"),
        fc.constantFrom("GET", "POST"),
        fc.dictionary(
          fc.constantFrom(
            "email",
            "token",
            "action",
            "name",
            "code",
            "state",
            "error",
            "iss",
            "callbackUrl",
          ),
          text,
        ),
        body,
        fc.boolean(),
        fc.integer({ min: 0, max: 1 }),
        async (action, provider, method, query, fields, json, which) => {
          const url = new URL(`/auth/${action}/${provider}`, ORIGIN)
          for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
          const headers = new Headers({
            "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
          })
          const payload = json
            ? JSON.stringify(fields)
            : new URLSearchParams(
                Object.entries(fields).map(([k, v]) => [
                  k,
                  typeof v === "string" ? v : JSON.stringify(v),
                ]),
              ).toString()
          const response = await Auth(
            new Request(url, { method, headers, body: method === "POST" ? payload : undefined }),
            configs[which]!,
          )
          expect(response.status, `${method} ${url} ${payload}`).toBeLessThan(500)
          const location = response.headers.get("location")
          if (location)
            expect(location, `${method} ${url} ${payload}`).not.toContain("error=Configuration")
        },
      ),
      { numRuns: 600 },
    )
  }, 60_000)
})
