/**
 * Issue 2 as an outside tester reads it (the issue text, the spec's Endpoints, Authentication
 * and Errors sections, docs/configuration.md and docs/sessions.md; not the sources): the
 * `Auth()` handler driven with real `Request`s, encrypted-JWT sessions, CSRF, credentials
 * sign-in, built-in pages and errors, through the public entry points only.
 */
import { describe, expect, test, vi } from "vitest"
import { jwtDecrypt, EncryptJWT } from "jose"
import { Auth, raw, setEnvDefaults, skipCSRFCheck, type AuthConfig } from "@tessera/core"
import { AccessDenied, AuthError, CredentialsSignin, MissingCSRF } from "@tessera/core/errors"
import { decode, deriveEncryptionKey, encode, getToken } from "@tessera/core/jwt"
import Credentials from "@tessera/core/providers/credentials"
import {
  Browser,
  HTTPS_ORIGIN,
  ORIGIN,
  SECRET,
  OTHER_SECRET,
  csrfCookieName,
  csrfToken,
  get,
  post,
  sessionCookieName,
  setCookie,
  setCookies,
  setsSession,
} from "../harness/index.js"
import { outsideSetup } from "./setup.js"

const { log, authConfig } = outsideSetup()

class Locked extends CredentialsSignin {
  override code = "locked"
}

const seen: { credentials: unknown; request: unknown }[] = []
const passwords = Credentials({
  name: "Password",
  credentials: {
    username: { label: "User name" },
    password: { label: "Password", type: "password" },
  },
  authorize(credentials, request) {
    seen.push({ credentials, request })
    if (credentials.username === "locked") throw new Locked()
    if (credentials.username === "boom") throw new Error("database password is hunter2")
    if (credentials.username === "ada" && credentials.password === "pw")
      return { id: "u-1", name: "Ada", email: "ada@example.com", image: null }
    return null
  },
})

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return authConfig({ providers: [passwords], ...overrides })
}

async function signedIn(cfg: AuthConfig, origin = ORIGIN, username = "ada") {
  const browser = new Browser(cfg, origin)
  const csrfToken = await browser.csrfToken()
  const response = await browser.request("/auth/callback/credentials", {
    body: { username, password: "pw", csrfToken },
  })
  return { browser, response }
}

describe("routes, methods and JSON shapes", () => {
  test("GET providers lists each provider with id, name, type, signinUrl, callbackUrl", async () => {
    const response = await Auth(get("/auth/providers"), config())
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Password",
        type: "credentials",
        signinUrl: `${ORIGIN}/auth/signin/credentials`,
        callbackUrl: `${ORIGIN}/auth/callback/credentials`,
      },
    })
  })

  test("GET csrf answers { csrfToken } and sets the HttpOnly double-submit cookie", async () => {
    const response = await Auth(get("/auth/csrf"), config())
    expect(response.status).toBe(200)
    const body = (await response.json()) as { csrfToken: string }
    expect(Object.keys(body)).toEqual(["csrfToken"])
    expect(body.csrfToken.length).toBeGreaterThanOrEqual(32)
    const cookie = setCookie(response, "tessera.csrf-token")!
    expect(cookie.attributes.httponly).toBe(true)
    expect(cookie.attributes.path).toBe("/")
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe("lax")
    expect(cookie.value).not.toBe(body.csrfToken)
    expect(cookie.value).toContain(body.csrfToken)
  })

  test("on https the CSRF cookie is __Host- (Secure, Path=/, no Domain)", async () => {
    const response = await Auth(get("/auth/csrf", { origin: HTTPS_ORIGIN }), config())
    const cookie = setCookie(response, "__Host-tessera.csrf-token")!
    expect(cookie).toBeDefined()
    expect(cookie.attributes.secure).toBe(true)
    expect(cookie.attributes.path).toBe("/")
    expect(cookie.attributes.domain).toBeUndefined()
  })

  test("GET session without a cookie is null, never cached", async () => {
    const response = await Auth(get("/auth/session"), config())
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(response.headers.get("expires")).toBe("0")
    expect(response.headers.get("pragma")).toBe("no-cache")
  })

  test("unknown action 404, wrong method 405 with Allow, both JSON", async () => {
    const unknown = await Auth(get("/auth/nope"), config())
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: expect.any(String) })
    const put = await Auth(new Request(`${ORIGIN}/auth/session`, { method: "PUT" }), config())
    expect(put.status).toBe(405)
    expect(put.headers.get("allow")).toBeTruthy()
    const postCsrf = await Auth(post("/auth/csrf", {}), config())
    expect(postCsrf.status).toBe(405)
  })

  test("a malformed cookie or body is a 4xx or a clean answer, never a 500", async () => {
    const badCookie = await Auth(
      get("/auth/session", { headers: { cookie: "tessera.session-token=%%%;;=x" } }),
      config(),
    )
    expect(badCookie.status).toBe(200)
    expect(await badCookie.json()).toBeNull()
    const badJson = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{not json",
      }),
      config(),
    )
    expect(badJson.status).toBeGreaterThanOrEqual(400)
    expect(badJson.status).toBeLessThan(500)
  })

  test("basePath moves every route", async () => {
    const cfg = config({ basePath: "/api/auth" })
    expect((await Auth(get("/api/auth/csrf"), cfg)).status).toBe(200)
    const providers = (await (await Auth(get("/api/auth/providers"), cfg)).json()) as any
    expect(providers.credentials.callbackUrl).toBe(`${ORIGIN}/api/auth/callback/credentials`)
  })
})

describe("configuration errors", () => {
  test.each([
    ["no secret", { secret: undefined }, "MissingSecret"],
    ["a secret under 32 characters", { secret: "short-secret" }, "InvalidSecret"],
    ["two providers with one id", { providers: [passwords, passwords] }, "DuplicateProviderId"],
  ])("%s: 500 JSON on API actions, error page on pages, logged by name", async (_, o, type) => {
    const saved = process.env.AUTH_SECRET
    delete process.env.AUTH_SECRET
    try {
      const cfg = config(o as Partial<AuthConfig>)
      const api = await Auth(get("/auth/session"), cfg)
      expect(api.status).toBe(500)
      expect(await api.json()).toMatchObject({ message: expect.any(String) })
      const page = await Auth(get("/auth/signin"), cfg)
      expect(page.status).toBe(500)
      expect(page.headers.get("content-type")).toContain("text/html")
      const logged = log.errors.splice(0)
      expect(logged.length).toBeGreaterThan(0)
      expect(logged.map((e) => (e as AuthError).type ?? e.name).join(" ")).toContain(type)
    } finally {
      if (saved !== undefined) process.env.AUTH_SECRET = saved
    }
  })

  test("a credentials provider given options but no authorize is MissingAuthorize", async () => {
    const cfg = config({
      providers: [Credentials({ credentials: { username: {} } } as never)],
    })
    const response = await Auth(get("/auth/providers"), cfg)
    expect(response.status).toBe(500)
    const logged = log.errors.splice(0)
    expect(logged.map((e) => (e as AuthError).type ?? e.name).join(" ")).toContain(
      "MissingAuthorize",
    )
  })
})

describe("credentials sign-in", () => {
  test("a user: 302 to the callbackUrl, an HttpOnly Lax session cookie, the session JSON", async () => {
    seen.length = 0
    const browser = new Browser(config())
    const csrfToken = await browser.csrfToken()
    const response = await browser.request("/auth/callback/credentials", {
      body: { username: "ada", password: "pw", csrfToken, callbackUrl: "/dashboard" },
    })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const cookie = setCookie(response, "tessera.session-token")!
    expect(cookie.attributes.httponly).toBe(true)
    expect(cookie.attributes.path).toBe("/")
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe("lax")
    expect(seen).toHaveLength(1)
    expect(seen[0]!.credentials).toMatchObject({ username: "ada", password: "pw" })
    expect(seen[0]!.request).toBeInstanceOf(Request)

    const session = await browser.session()
    expect(session.user).toMatchObject({ name: "Ada", email: "ada@example.com" })
    expect(new Date(session.expires).toISOString()).toBe(session.expires)
    const days = (Date.parse(session.expires) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThanOrEqual(30)
  })

  test("on https the session cookie is __Secure- and Secure", async () => {
    const { response } = await signedIn(config(), HTTPS_ORIGIN)
    const cookie = setCookie(response, "__Secure-tessera.session-token")!
    expect(cookie.attributes.secure).toBe(true)
    expect(cookie.attributes.httponly).toBe(true)
  })

  test("null: to the sign-in page with error=CredentialsSignin&code=credentials", async () => {
    const { response } = await signedIn(config(), ORIGIN, "nobody")
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin + location.pathname).toBe(`${ORIGIN}/auth/signin`)
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("credentials")
    expect(setsSession(response)).toBe(false)
  })

  test("a thrown CredentialsSignin subclass gives its code", async () => {
    const { response } = await signedIn(config(), ORIGIN, "locked")
    const location = new URL(response.headers.get("location")!)
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("locked")
  })

  test("any other throw: error=Configuration, logged in full, nothing of it in the URL", async () => {
    const { response } = await signedIn(config(), ORIGIN, "boom")
    expect(response.status).toBe(302)
    const location = response.headers.get("location")!
    expect(new URL(location).searchParams.get("error")).toBe("Configuration")
    expect(location).not.toContain("hunter2")
    const logged = log.errors.splice(0)
    expect(logged.length).toBeGreaterThan(0)
    const text = logged
      .map((e) => `${e.message} ${(e.cause as any)?.err?.message ?? (e.cause as any)?.message}`)
      .join(" ")
    expect(text).toContain("hunter2")
  })

  test("signIn callback false: AccessDenied on the error page; a string: redirect there", async () => {
    const denied = await signedIn(config({ callbacks: { signIn: () => false } }))
    const location = new URL(denied.response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("AccessDenied")
    expect(setsSession(denied.response)).toBe(false)
    const page = await Auth(get(location.pathname + location.search), config())
    expect(page.status).toBe(403)

    const redirected = await signedIn(config({ callbacks: { signIn: () => "/welcome" } }))
    expect(redirected.response.headers.get("location")).toBe(`${ORIGIN}/welcome`)
    expect(setsSession(redirected.response)).toBe(false)
  })

  test("X-Auth-Return-Redirect: 1 gets JSON { url } instead of a 302", async () => {
    const browser = new Browser(config())
    const csrfToken = await browser.csrfToken()
    const response = await browser.request("/auth/callback/credentials", {
      body: { username: "nobody", password: "x", csrfToken },
      headers: { "x-auth-return-redirect": "1" },
    })
    expect(response.status).toBe(200)
    const { url } = (await response.json()) as { url: string }
    expect(new URL(url).searchParams.get("error")).toBe("CredentialsSignin")
  })
})

describe("CSRF", () => {
  async function attempt(body: Record<string, string>, headers: Record<string, string> = {}) {
    const browser = new Browser(config())
    const csrfToken = await browser.csrfToken()
    const response = await browser.request("/auth/callback/credentials", {
      body: { username: "ada", password: "pw", csrfToken, ...body },
      headers,
    })
    return response
  }

  test.each([
    ["no token", { csrfToken: "" }, {}],
    ["a wrong token", { csrfToken: "f".repeat(64) }, {}],
    ["a foreign Origin", {}, { origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", {}, { "sec-fetch-site": "cross-site" }],
  ])("%s: refused to the sign-in page with error=Signin, no session", async (_, body, headers) => {
    const response = await attempt(body, headers)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("Signin")
    expect(setsSession(response)).toBe(false)
  })

  test("a token without its cookie is refused", async () => {
    const { token } = await (async () => {
      const r = await Auth(get("/auth/csrf"), config())
      return { token: ((await r.json()) as any).csrfToken as string }
    })()
    const response = await Auth(
      post("/auth/callback/credentials", { username: "ada", password: "pw", csrfToken: token }),
      config(),
    )
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("Signin")
  })

  test("sign-out and session update need the token too", async () => {
    const { browser } = await signedIn(config())
    const out = await browser.request("/auth/signout", { body: { csrfToken: "wrong" } })
    expect(out.status).toBe(302)
    expect(await browser.session()).not.toBeNull()
    const update = await browser.fetch("/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ data: { name: "Eve" } }),
    })
    expect(update.status).not.toBe(200)
    expect((await browser.session()).user.name).toBe("Ada")
  })

  test("skipCSRFCheck: the csrf action answers 404 and a POST needs no token", async () => {
    const cfg = config({ skipCSRFCheck })
    expect((await Auth(get("/auth/csrf"), cfg)).status).toBe(404)
    const response = await Auth(
      post("/auth/callback/credentials", { username: "ada", password: "pw" }),
      cfg,
    )
    expect(response.status).toBe(302)
    expect(setsSession(response)).toBe(true)
  })
})

describe("redirects", () => {
  test.each([
    "https://evil.example/x",
    "//evil.example/x",
    "/\\evil.example/x",
    "https:evil.example",
    "javascript:alert(1)",
    "https://user@evil.example",
    "%2F%2Fevil.example",
  ])("callbackUrl %s never leaves the origin", async (callbackUrl) => {
    const browser = new Browser(config())
    const csrfToken = await browser.csrfToken()
    const response = await browser.request("/auth/callback/credentials", {
      body: { username: "ada", password: "pw", csrfToken, callbackUrl },
    })
    expect(response.status).toBe(302)
    expect(new URL(response.headers.get("location")!).origin).toBe(ORIGIN)
  })

  test("callbackUrl goes through the redirect callback with url and baseUrl", async () => {
    const calls: unknown[] = []
    const cfg = config({
      callbacks: {
        redirect: (params) => {
          calls.push(params)
          return `${params.baseUrl}/chosen`
        },
      },
    })
    const browser = new Browser(cfg)
    const csrfToken = await browser.csrfToken()
    const response = await browser.request("/auth/callback/credentials", {
      body: { username: "ada", password: "pw", csrfToken, callbackUrl: "/asked" },
    })
    expect(response.headers.get("location")).toBe(`${ORIGIN}/chosen`)
    // As in Auth.js, the callback sees the callbackUrl as sent (here relative).
    expect(calls).toContainEqual({ url: "/asked", baseUrl: ORIGIN })
  })
})

describe("JWT sessions", () => {
  test("the cookie is a compact dir JWE that jose decrypts with the derived key, and back", async () => {
    const { response } = await signedIn(config())
    const token = setCookie(response, sessionCookieName())!.value
    const [header] = token.split(".")
    const parsed = JSON.parse(Buffer.from(header!, "base64url").toString())
    expect(parsed.alg).toBe("dir")
    expect(["A256GCM", "A256CBC-HS512"]).toContain(parsed.enc)
    expect(token.split(".")).toHaveLength(5)
    const key = await deriveEncryptionKey(SECRET, "tessera.session-token")
    const { payload } = await jwtDecrypt(token, key, { clockTolerance: 15 })
    expect(payload).toMatchObject({ email: "ada@example.com", name: "Ada" })

    const made = await new EncryptJWT({ sub: "u-9", name: "Jose", email: "jose@example.com" })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .setJti(crypto.randomUUID())
      .encrypt(key)
    const session = await (
      await Auth(
        get("/auth/session", { headers: { cookie: `tessera.session-token=${made}` } }),
        config(),
      )
    ).json()
    expect(session.user).toMatchObject({ name: "Jose", email: "jose@example.com" })
  })

  test("encode/decode round-trip with a salt; decode with a wrong secret is refused", async () => {
    const salt = "tessera.session-token"
    const token = await encode({ token: { sub: "x", name: "X" }, secret: SECRET, salt })
    expect(await decode({ token, secret: SECRET, salt })).toMatchObject({ sub: "x", name: "X" })
    await expect(
      decode({ token, secret: OTHER_SECRET, salt }).then((v) => v ?? Promise.reject(new Error())),
    ).rejects.toBeDefined()
  })

  test("secret rotation: a cookie made with the old secret is read with [new, old]", async () => {
    const { browser } = await signedIn(config({ secret: OTHER_SECRET }))
    const rotated = new Browser(config({ secret: [SECRET, OTHER_SECRET] }), ORIGIN, browser.jar)
    expect((await rotated.session())?.user?.email).toBe("ada@example.com")
    const fresh = new Browser(config({ secret: SECRET }), ORIGIN, browser.jar)
    // After the rotated read re-issued the cookie with the first secret, the new one reads it.
    expect((await fresh.session())?.user?.email).toBe("ada@example.com")
  })

  test("getToken reads the cookie and an Authorization: Bearer header", async () => {
    const { response } = await signedIn(config())
    const token = setCookie(response, sessionCookieName())!.value
    const fromCookie = await getToken({
      req: get("/x", { headers: { cookie: `tessera.session-token=${token}` } }),
      secret: SECRET,
    })
    expect(fromCookie).toMatchObject({ email: "ada@example.com" })
    const fromHeader = await getToken({
      req: get("/x", { headers: { authorization: `Bearer ${token}` } }),
      secret: SECRET,
    })
    expect(fromHeader).toMatchObject({ email: "ada@example.com" })
  })

  test("jwt callback: trigger signIn with user and account; session callback gets token", async () => {
    const jwtCalls: any[] = []
    const sessionCalls: any[] = []
    const cfg = config({
      callbacks: {
        jwt: (params) => {
          jwtCalls.push(params)
          return { ...params.token, role: "admin" }
        },
        session: (params: any) => {
          sessionCalls.push(params)
          return { ...params.session, role: params.token.role }
        },
      },
    })
    const { browser } = await signedIn(cfg)
    expect(jwtCalls[0]).toMatchObject({
      trigger: "signIn",
      user: { id: "u-1", email: "ada@example.com" },
      account: { provider: "credentials", type: "credentials", providerAccountId: "u-1" },
    })
    const session = await browser.session()
    expect(session.role).toBe("admin")
    expect(sessionCalls.at(-1).token).toMatchObject({ role: "admin", email: "ada@example.com" })
  })

  test("a plain session check does not re-issue the cookie", async () => {
    const { browser } = await signedIn(config())
    const response = await browser.fetch("/auth/session")
    expect(setCookies(response).filter((c) => c.name.startsWith("tessera.session"))).toEqual([])
  })

  test("POST session with CSRF runs jwt with trigger update and the data", async () => {
    const calls: any[] = []
    const cfg = config({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          calls.push({ trigger, session })
          if (trigger === "update") return { ...token, name: (session as any).name }
          return token
        },
      },
    })
    const { browser } = await signedIn(cfg)
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ csrfToken, data: { name: "Ada L." } }),
    })
    expect(response.status).toBe(200)
    expect(((await response.json()) as any).user.name).toBe("Ada L.")
    expect(calls).toContainEqual({ trigger: "update", session: { name: "Ada L." } })
    expect((await browser.session()).user.name).toBe("Ada L.")
  })

  test("jwt returning null ends the session", async () => {
    const { browser } = await signedIn(
      config({ callbacks: { jwt: ({ trigger, token }) => (trigger ? token : null) } }),
    )
    expect(await browser.session()).toBeNull()
  })

  test("a token over ~4 KB is split into name.0, name.1 and read back; sign-out clears them", async () => {
    const cfg = config({
      callbacks: { jwt: ({ token }) => ({ ...token, big: "x".repeat(6000) }) },
    })
    const { browser, response } = await signedIn(cfg)
    const names = setCookies(response).map((c) => c.name)
    expect(names).toContain("tessera.session-token.0")
    expect(names).toContain("tessera.session-token.1")
    expect((await browser.session()).user.email).toBe("ada@example.com")
    const out = await browser.signOut()
    expect(out.status).toBe(302)
    expect([...browser.jar.keys()].filter((n) => n.startsWith("tessera.session"))).toEqual([])
  })
})

describe("stale chunks", () => {
  test("a token that shrinks below ~4 KB clears the chunks it no longer needs", async () => {
    const cfg = config({
      callbacks: {
        jwt: ({ token, trigger, session }) =>
          trigger === "update"
            ? { ...token, big: (session as any).big }
            : token.big
              ? token
              : { ...token, big: "z".repeat(6000) },
      },
    })
    const { browser } = await signedIn(cfg)
    expect(browser.jar.has("tessera.session-token.1")).toBe(true)
    const response = await browser.fetch("/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ csrfToken: await browser.csrfToken(), data: { big: "small" } }),
    })
    expect(response.status).toBe(200)
    const live = [...browser.jar.keys()].filter((n) => n.startsWith("tessera.session-token"))
    expect(live).toEqual(["tessera.session-token"])
    expect((await browser.session()).user.email).toBe("ada@example.com")
  })
})

describe("sign-out", () => {
  test("POST signout with CSRF clears the session cookie and redirects", async () => {
    const { browser } = await signedIn(config())
    const response = await browser.signOut()
    expect(response.status).toBe(302)
    const cleared = setCookie(response, "tessera.session-token")!
    expect(cleared.value === "" || cleared.attributes["max-age"] === "0").toBe(true)
    expect(await browser.session()).toBeNull()
  })
})

describe("built-in pages", () => {
  test("sign-in page: a section per provider, the credentials fields, the CSRF input", async () => {
    const cfg = config({
      providers: [
        passwords,
        {
          id: "gh",
          name: "Git<b>Hub</b>",
          type: "oauth",
          authorization: "https://gh.example/authorize",
          token: "https://gh.example/token",
          userinfo: "https://gh.example/user",
          clientId: "id",
          clientSecret: "s",
        },
      ],
    })
    const browser = new Browser(cfg)
    const response = await browser.fetch("/auth/signin")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("text/html")
    const html = await response.text()
    expect(html).toMatch(/name="username"/)
    expect(html).toMatch(/name="password"[^>]*type="password"|type="password"[^>]*name="password"/)
    expect(html).toMatch(/type="hidden"[^>]*name="csrfToken"|name="csrfToken"[^>]*type="hidden"/)
    expect(html).toContain("Git&lt;b&gt;Hub&lt;/b&gt;")
    expect(html).not.toContain("Git<b>Hub</b>")
    expect(html).toContain("/auth/signin/gh")
  })

  test.each([
    "Signin",
    "OAuthSignin",
    "OAuthCallbackError",
    "OAuthCreateAccount",
    "EmailCreateAccount",
    "Callback",
    "OAuthAccountNotLinked",
    "EmailSignin",
    "CredentialsSignin",
    "SessionRequired",
  ])("sign-in page shows a message for error=%s", async (error) => {
    const plain = await (await Auth(get("/auth/signin"), config())).text()
    const response = await Auth(get(`/auth/signin?error=${error}`), config())
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html.length).toBeGreaterThan(plain.length)
  })

  test("an error value is escaped, never echoed raw", async () => {
    const evil = "<script>alert(1)</script>"
    for (const page of ["signin", "error"]) {
      const html = await (
        await Auth(get(`/auth/${page}?error=${encodeURIComponent(evil)}`), config())
      ).text()
      expect(html).not.toContain(evil)
    }
  })

  test.each([
    ["Configuration", 500],
    ["AccessDenied", 403],
    ["Verification", 403],
  ])("error page for %s answers %i", async (error, status) => {
    const response = await Auth(get(`/auth/error?error=${error}`), config())
    expect(response.status).toBe(status)
    expect(response.headers.get("content-type")).toContain("text/html")
  })

  test("sign-out page is a confirmation form with the CSRF token; verify-request 200", async () => {
    // docs/pages.md: the form is for a signed-in browser; others read "You are not signed in."
    const anonymous = await (await Auth(get("/auth/signout"), config())).text()
    expect(anonymous).toContain("You are not signed in.")
    const { browser } = await signedIn(config())
    const response = await browser.fetch("/auth/signout")
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toMatch(/<form[^>]*method="post"/i)
    expect(html).toContain('name="csrfToken"')
    expect((await Auth(get("/auth/verify-request"), config())).status).toBe(200)
  })

  test("theme: brandColor and logo appear, colorScheme is honoured", async () => {
    const cfg = config({
      theme: { brandColor: "#123456", logo: "https://img.example/logo.png", colorScheme: "dark" },
    })
    const html = await (await Auth(get("/auth/signin"), cfg)).text()
    expect(html).toContain("#123456")
    expect(html).toContain("https://img.example/logo.png")
    expect(html).toMatch(/dark/)
  })

  test("pages options redirect the built-in pages and failures to custom paths", async () => {
    const cfg = config({ pages: { signIn: "/login", error: "/oops" } })
    const page = await Auth(get("/auth/signin"), cfg)
    expect(page.status).toBe(302)
    expect(new URL(page.headers.get("location")!).pathname).toBe("/login")
    const { response } = await signedIn(cfg, ORIGIN, "nobody")
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/login")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    const denied = await signedIn(
      config({ pages: { error: "/oops" }, callbacks: { signIn: () => false } }),
    )
    const deniedAt = new URL(denied.response.headers.get("location")!)
    expect(deniedAt.pathname).toBe("/oops")
    expect(deniedAt.searchParams.get("error")).toBe("AccessDenied")
  })
})

describe("raw mode and errors", () => {
  test("raw returns { status, headers, cookies, redirect, body }", async () => {
    const result: any = await Auth(get("/auth/csrf"), { ...config(), raw })
    expect(result).not.toBeInstanceOf(Response)
    expect(result.body).toMatchObject({ csrfToken: expect.any(String) })
    expect(Array.isArray(result.cookies)).toBe(true)
    expect(result.cookies.map((c: any) => c.name)).toContain(csrfCookieName())
  })

  test("raw mode throws a credentials failure to the caller (spec Errors rule 2)", async () => {
    const { token, jar } = await csrfToken(config())
    const request = post(
      "/auth/callback/credentials",
      { username: "locked", password: "x", csrfToken: token },
      { jar },
    )
    const failure = await Auth(request, { ...config(), raw }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(CredentialsSignin)
    expect((failure as CredentialsSignin).code).toBe("locked")
  })

  test("error classes: names, type values, constructor forms, CredentialsSignin code", () => {
    const e = new CredentialsSignin("nope", { cause: { err: new Error("inner") } })
    expect(e).toBeInstanceOf(AuthError)
    expect(e.name).toBe("CredentialsSignin")
    expect(e.type).toBe("CredentialsSignin")
    expect(e.code).toBe("credentials")
    expect(e.message).toContain("nope")
    expect((e.cause as any).err.message).toBe("inner")
    const f = new AccessDenied({ cause: { err: new Error("x") } })
    expect(f.type).toBe("AccessDenied")
    expect(new MissingCSRF().type).toBe("MissingCSRF")
    expect(CredentialsSignin.kind).toBe("signIn")
    expect(AccessDenied.kind).toBe("error")
  })

  test("a partial logger falls back to the default for the others", async () => {
    const warned: string[] = []
    const cfg: AuthConfig = { ...config(), logger: { warn: (code) => void warned.push(code) } }
    const response = await Auth(get("/auth/session"), cfg)
    expect(response.status).toBe(200)
  })
})

describe("the rest of the public surface", () => {
  test("setEnvDefaults: AUTH_SECRET with AUTH_SECRET_1 rotates (the first encodes)", async () => {
    const old: AuthConfig = { ...config(), secret: undefined }
    setEnvDefaults({ AUTH_SECRET: OTHER_SECRET }, old)
    const { browser } = await signedIn(old)
    const rotated: AuthConfig = { ...config(), secret: undefined }
    setEnvDefaults({ AUTH_SECRET: SECRET, AUTH_SECRET_1: OTHER_SECRET }, rotated)
    const reader = new Browser(rotated, ORIGIN, browser.jar)
    expect((await reader.session())?.user?.email).toBe("ada@example.com")
  })

  test("events: signIn then signOut (with the token) for a JWT session", async () => {
    const events: [string, any][] = []
    const cfg = config({
      events: {
        signIn: (m) => void events.push(["signIn", m]),
        signOut: (m) => void events.push(["signOut", m]),
      },
    })
    const { browser } = await signedIn(cfg)
    await browser.signOut()
    expect(events.map(([n]) => n)).toEqual(["signIn", "signOut"])
    expect(events[0]![1]).toMatchObject({
      user: { email: "ada@example.com" },
      account: { provider: "credentials" },
    })
    expect(events[1]![1].token).toMatchObject({ email: "ada@example.com" })
  })

  test("the cookie is re-issued once updateAge has passed, not before", async () => {
    const cfg = config({ session: { maxAge: 30 * 86400, updateAge: 3600 } })
    const { browser } = await signedIn(cfg)
    const sessionCookies = (r: Response) =>
      setCookies(r).filter((c) => c.name.startsWith("tessera.session-token"))
    vi.useFakeTimers({ now: Date.now() + 1800_000, toFake: ["Date"] })
    expect(sessionCookies(await browser.fetch("/auth/session"))).toEqual([])
    vi.setSystemTime(Date.now() + 3600_000)
    expect(sessionCookies(await browser.fetch("/auth/session")).length).toBe(1)
  })

  test("an expired session cookie reads as null and is cleared", async () => {
    const cfg = config({ session: { maxAge: 60 } })
    const { browser } = await signedIn(cfg)
    vi.useFakeTimers({ now: Date.now() + 120_000, toFake: ["Date"] })
    const response = await browser.fetch("/auth/session")
    expect(await response.json()).toBeNull()
    expect(browser.jar.has("tessera.session-token")).toBe(false)
  })

  test("getToken reads a chunked cookie", async () => {
    const cfg = config({ callbacks: { jwt: ({ token }) => ({ ...token, big: "y".repeat(6000) }) } })
    const { browser } = await signedIn(cfg)
    const token = await getToken({
      req: get("/x", { headers: { cookie: browser.jar.header() } }),
      secret: SECRET,
    })
    expect(token).toMatchObject({ email: "ada@example.com", big: "y".repeat(6000) })
  })

  test("a JSON credentials POST signs in like a form", async () => {
    const browser = new Browser(config())
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "ada", password: "pw", csrfToken }),
    })
    expect(response.status).toBe(302)
    expect(setsSession(response)).toBe(true)
  })

  test("sign-out honours a callbackUrl on the origin, not one elsewhere", async () => {
    const { browser } = await signedIn(config())
    const csrfToken = await browser.csrfToken()
    const here = await browser.request("/auth/signout", {
      body: { csrfToken, callbackUrl: "/bye" },
    })
    expect(here.headers.get("location")).toBe(`${ORIGIN}/bye`)
    const again = await signedIn(config())
    const away = await again.browser.request("/auth/signout", {
      body: { csrfToken: await again.browser.csrfToken(), callbackUrl: "https://evil.example/" },
    })
    expect(new URL(away.headers.get("location")!).origin).toBe(ORIGIN)
  })
})

describe("more refusals and options", () => {
  test("session update from another site is refused even with the token", async () => {
    const { browser } = await signedIn(config())
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ csrfToken, data: { name: "Eve" } }),
    })
    expect(response.status).not.toBe(200)
    expect((await browser.session()).user.name).toBe("Ada")
  })

  test("cookies options rename the session cookie", async () => {
    const cfg = config({ cookies: { sessionToken: { name: "my-session" } } })
    const { response, browser } = await signedIn(cfg)
    expect(setCookie(response, "my-session")).toBeDefined()
    expect((await browser.session()).user.email).toBe("ada@example.com")
  })

  test("the credentials labels from the provider appear on the sign-in page", async () => {
    const html = await (await Auth(get("/auth/signin?callbackUrl=%2Fnext"), config())).text()
    expect(html).toContain("User name")
    expect(html).toMatch(
      /name="callbackUrl"[^>]*value="[^"]*next"|value="[^"]*next"[^>]*name="callbackUrl"/,
    )
  })

  test("buttonText is used on the sign-in page", async () => {
    const html = await (
      await Auth(
        get("/auth/signin"),
        config({ theme: { brandColor: "#000000", buttonText: "#abcdef" } }),
      )
    ).text()
    expect(html).toContain("#abcdef")
  })

  test("POST session answers the updated session without caching", async () => {
    const { browser } = await signedIn(config())
    const csrfToken = await browser.csrfToken()
    const response = await browser.fetch("/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ csrfToken }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(((await response.json()) as any).user.email).toBe("ada@example.com")
  })
})

describe("resolution and lifetimes", () => {
  test("a config object is resolved once: its getters are read once over many requests", async () => {
    let reads = 0
    const cfg = config()
    const providers = cfg.providers
    Object.defineProperty(cfg, "providers", {
      get: () => {
        reads++
        return providers
      },
    })
    for (let i = 0; i < 3; i++) await Auth(get("/auth/providers"), cfg)
    expect(reads).toBe(1)
  })

  test("session.maxAge sets the cookie's lifetime and the session's expires", async () => {
    const { response, browser } = await signedIn(config({ session: { maxAge: 3600 } }))
    const cookie = setCookie(response, "tessera.session-token")!
    const expiresAttr = Date.parse(String(cookie.attributes.expires))
    const maxAge = cookie.attributes["max-age"]
    const lifetime = maxAge !== undefined ? Number(maxAge) : (expiresAttr - Date.now()) / 1000
    expect(lifetime).toBeGreaterThan(3590)
    expect(lifetime).toBeLessThanOrEqual(3600)
    const session = await browser.session()
    const left = (Date.parse(session.expires) - Date.now()) / 1000
    expect(left).toBeGreaterThan(3590)
    expect(left).toBeLessThanOrEqual(3600)
  })
})
