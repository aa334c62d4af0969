/**
 * CSRF: a double-submit cookie holding token|HMAC; required for POST signin,
 * signout, session update and the credentials callback; cross-site POSTs are
 * refused even with a token; `skipCSRFCheck` turns it all off.
 */
import { describe, expect, test } from "vitest"
import { Auth, skipCSRFCheck } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import { timingSafeEqual } from "../../src/lib/crypto.js"
import {
  HTTPS_ORIGIN,
  Jar,
  ORIGIN,
  OTHER_SECRET,
  SECRET,
  credentialsProvider,
  csrfToken,
  get,
  makeConfig,
  post,
  setCookie,
  setCookies,
  signIn,
} from "../harness/index.js"

const CSRF = "tessera.csrf-token"

/** A config whose authorize records its calls, to prove a refused POST never reached it. */
function countingConfig(overrides = {}) {
  const calls: unknown[] = []
  const provider = credentialsProvider()
  const { config, log } = makeConfig({
    providers: [
      { ...provider, authorize: (c: any, r: Request) => (calls.push(c), provider.authorize(c, r)) },
    ],
    ...overrides,
  })
  return { config, log, calls }
}

describe("the csrf action", () => {
  test("hands out a 256-bit token and sets the cookie holding token|HMAC", async () => {
    const { config } = makeConfig()
    const response = await Auth(get("/auth/csrf"), config)
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
    const { csrfToken: token } = (await response.json()) as { csrfToken: string }
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    const cookie = setCookie(response, CSRF)!
    const [cookieToken, mac] = cookie.value.split("|")
    expect(cookieToken).toBe(token)
    expect(mac).toMatch(/^[0-9a-f]{64}$/)
    expect(cookie.attributes).toMatchObject({ httponly: true, samesite: "Lax", path: "/" })
  })

  test("tokens are fresh per client and stable per cookie", async () => {
    const { config } = makeConfig()
    const a = await csrfToken(config)
    const b = await csrfToken(config)
    expect(a.token).not.toBe(b.token)
    const again = await Auth(get("/auth/csrf", { jar: a.jar }), config)
    expect(((await again.json()) as { csrfToken: string }).csrfToken).toBe(a.token)
    expect(setCookies(again)).toEqual([])
  })

  test("a cookie whose HMAC does not verify is replaced by a new token", async () => {
    const { config } = makeConfig()
    const forged = `${"a".repeat(64)}|${"b".repeat(64)}`
    const response = await Auth(
      get("/auth/csrf", { headers: { cookie: `${CSRF}=${encodeURIComponent(forged)}` } }),
      config,
    )
    const { csrfToken: token } = (await response.json()) as { csrfToken: string }
    expect(token).not.toBe("a".repeat(64))
    expect(setCookie(response, CSRF)!.value.startsWith(`${token}|`)).toBe(true)
  })

  test("on https the cookie is __Host- (Secure, Path=/, no Domain)", async () => {
    const { config } = makeConfig()
    const response = await Auth(get("/auth/csrf", { origin: HTTPS_ORIGIN }), config)
    const cookie = setCookie(response, "__Host-tessera.csrf-token")!
    expect(cookie.attributes).toMatchObject({
      secure: true,
      path: "/",
      httponly: true,
      samesite: "Lax",
    })
    expect(cookie.attributes.domain).toBeUndefined()
  })

  test("the sign-in and sign-out pages embed the cookie's token", async () => {
    const { config } = makeConfig()
    // Signed in: the sign-out page has a form only for someone to sign out.
    const { jar } = await signIn(config)
    const { token } = await csrfToken(config, jar)
    for (const path of ["/auth/signin", "/auth/signout"]) {
      const html = await (await Auth(get(path, { jar }), config)).text()
      expect(html).toContain(`<input type="hidden" name="csrfToken" value="${token}">`)
    }
  })

  test("with skipCSRFCheck it answers 404", async () => {
    const { config } = makeConfig({ skipCSRFCheck })
    const response = await Auth(get("/auth/csrf"), config)
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({
      error: "UnknownAction",
      message: "CSRF protection is turned off",
    })
    expect(setCookies(response)).toEqual([])
  })
})

/** The POSTs that need the token, each with a check that the refusal left everything as it was. */
const guarded = [
  { path: "/auth/callback/credentials", fields: { username: "ada", password: "correct horse" } },
  { path: "/auth/signin/credentials", fields: { username: "ada", password: "correct horse" } },
]

describe("state-changing POSTs need the token", () => {
  const bad: Array<
    [string, (token: string, jar: Jar, otherJar: Jar) => { body: Record<string, string>; jar: Jar }]
  > = [
    ["no token in the body", (_t, jar) => ({ body: {}, jar })],
    ["a wrong token", (_t, jar) => ({ body: { csrfToken: "0".repeat(64) }, jar })],
    ["the token without its cookie", (t) => ({ body: { csrfToken: t }, jar: new Jar() })],
    [
      "the token with another client's genuine cookie",
      (t, _jar, otherJar) => ({ body: { csrfToken: t }, jar: otherJar }),
    ],
    [
      "an attacker-chosen token|mac pair",
      () => ({
        body: { csrfToken: "e".repeat(64) },
        jar: new Jar({ [CSRF]: `${"e".repeat(64)}|${"f".repeat(64)}` }),
      }),
    ],
    ["a token with a different length", (t, jar) => ({ body: { csrfToken: t.slice(0, 63) }, jar })],
  ]

  for (const { path, fields } of guarded) {
    test.each(bad)(
      `POST ${path}: %s -> sign-in page with error=Signin, authorize not called, no session`,
      async (_name, make) => {
        const { config, calls } = countingConfig()
        const { token, jar } = await csrfToken(config)
        const other = await csrfToken(config)
        const { body, jar: sent } = make(token, jar, other.jar)
        const response = await Auth(post(path, { ...fields, ...body }, { jar: sent }), config)
        expect(response.status).toBe(302)
        expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=Signin`)
        expect(calls).toEqual([])
        expect(setCookies(response).map((c) => c.name)).not.toContain("tessera.session-token")
      },
    )
  }

  test("POST signout without the token keeps the session", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const response = await Auth(post("/auth/signout", {}, { jar }), config)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=Signin`)
    expect(setCookies(response)).toEqual([])
    const session = await Auth(get("/auth/session", { jar }), config)
    expect(await session.json()).not.toBeNull()
  })

  test("POST session (update) without the token is a 400", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const response = await Auth(post("/auth/session", { data: "x" }, { jar }), config)
    expect(response.status).toBe(400)
  })

  test("a CSRF cookie made under a previous secret is still accepted after rotation", async () => {
    const { config: before } = makeConfig({ secret: OTHER_SECRET })
    const { token, jar } = await csrfToken(before)
    const { config: after } = makeConfig({ secret: [SECRET, OTHER_SECRET] })
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token },
        { jar },
      ),
      after,
    )
    expect(response.headers.get("location")).toBe(ORIGIN)
    expect(setCookie(response, "tessera.session-token")).toBeDefined()
  })
})

describe("cross-site POSTs are refused even with a valid token", () => {
  test.each([
    [{ origin: "https://evil.example" }],
    [{ origin: "http://localhost:3001" }],
    [{ origin: "https://localhost:3000" }],
    [{ origin: "null" }],
    [{ "sec-fetch-site": "cross-site" }],
    [{ "sec-fetch-site": "cross-site", origin: ORIGIN }],
  ])("%j", async (headers) => {
    const { config, calls } = countingConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token },
        { jar, headers },
      ),
      config,
    )
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=Signin`)
    expect(calls).toEqual([])
  })

  test.each([
    [{ origin: ORIGIN }],
    [{ "sec-fetch-site": "same-origin", origin: ORIGIN }],
    [{ "sec-fetch-site": "same-site" }],
    [{}],
  ])("same-site requests pass: %j", async (headers) => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token },
        { jar, headers },
      ),
      config,
    )
    expect(response.headers.get("location")).toBe(ORIGIN)
  })

  test("a session update from another origin is refused", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const { token } = await csrfToken(config, jar)
    const response = await Auth(
      post(
        "/auth/session",
        { csrfToken: token },
        { jar, headers: { origin: "https://evil.example" } },
      ),
      config,
    )
    expect(response.status).toBe(400)
  })
})

describe("a JSON route refused for its CSRF token", () => {
  // A fetch() of the two-factor or sessions routes gets JSON, not a page: the answer must tell
  // the developer what to send, where Auth.js's `error: "Signin"` alone says nothing.
  async function signedIn(basePath = "/auth") {
    const { config } = makeConfig({ adapter: MemoryAdapter(), basePath })
    const { jar } = await signIn(config, undefined, { basePath })
    return { config, jar }
  }

  test("without the token: 403, error Signin, and a message naming csrfToken and the csrf route", async () => {
    const { config, jar } = await signedIn("/api/auth")
    const response = await Auth(post("/api/auth/two-factor/setup", {}, { jar }), config)
    expect(response.status).toBe(403)
    const body = (await response.json()) as { error: string; message: string }
    expect(body.error).toBe("Signin")
    expect(body.message).toContain("csrfToken")
    expect(body.message).toContain("GET /api/auth/csrf")
  })

  test("with the token but from another site: the message says the origin is refused", async () => {
    const { config, jar } = await signedIn()
    const { token } = await csrfToken(config, jar)
    const response = await Auth(
      post(
        "/auth/sessions/revoke",
        { id: "x", csrfToken: token },
        { jar, headers: { origin: "https://evil.example" } },
      ),
      config,
    )
    expect(response.status).toBe(403)
    const body = (await response.json()) as { error: string; message: string }
    expect(body.error).toBe("Signin")
    expect(body.message).toMatch(/origin/i)
    expect(body.message).not.toContain("evil.example")
  })
})

describe("skipCSRFCheck", () => {
  test("POSTs go through without a token (the integration checks CSRF itself)", async () => {
    const { config } = makeConfig({ skipCSRFCheck })
    const response = await Auth(
      post("/auth/callback/credentials", { username: "ada", password: "correct horse" }),
      config,
    )
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(ORIGIN)
    expect(setCookie(response, "tessera.session-token")).toBeDefined()
  })
})

test("timingSafeEqual compares whole values (lengths included)", () => {
  expect(timingSafeEqual("abc", "abc")).toBe(true)
  expect(timingSafeEqual("abc", "abd")).toBe(false)
  expect(timingSafeEqual("abc", "ab")).toBe(false)
  expect(timingSafeEqual("", "")).toBe(true)
  expect(timingSafeEqual("ab", "abc")).toBe(false)
  expect(timingSafeEqual("é", "e\u0301")).toBe(false)
})
