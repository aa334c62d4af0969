/**
 * Request parsing: malformed bodies, cookies and hosts get a clear 4xx (never
 * a 500 or a throw), and host headers are trusted only with `trustHost`.
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { MAX_BODY_BYTES } from "../src/http/request.js"
import { ORIGIN, csrfToken, get, makeConfig, post, setCookie, setCookies } from "./helpers.js"

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
    const body = JSON.stringify({
      csrfToken: token,
      username: { $ne: null },
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
    expect(((await api.json()) as { error: string }).error).toBe("Configuration")
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
