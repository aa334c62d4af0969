/**
 * Issue 10 ("Architecture: one route table, a flow contract per provider type, tests that
 * mirror the code, tidy packages"), tested as an outsider would: from the issue's text, the
 * spec and docs/ (configuration.md "Routes" and "Resolution and errors in detail",
 * sessions.md, two-factor.md, testing.md, migrating-from-authjs.md) only, through `Auth()`
 * with real `Request`s, and through the BUILT packages in child processes, as an app
 * installs them. The file layout the issue asks for is not observable and is not tested.
 */
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { createRequire } from "node:module"
import ts from "typescript"
import { describe, expect, test, vi } from "vitest"
import { Auth, customFetch, skipCSRFCheck, type AuthConfig } from "@tessera/core"
import * as errors from "@tessera/core/errors"
import { decode, encode, getToken } from "@tessera/core/jwt"
import Passkey from "@tessera/core/providers/passkey"
import { MemoryAdapter } from "@tessera/testing"
import {
  ADA,
  Jar,
  OTHER_SECRET,
  SECRET,
  credentialsProvider,
  csrfToken,
  get,
  oauthProvider,
  post,
  recordingLogger,
  signIn,
} from "../harness/index.js"
import { outsideSetup } from "./setup.js"

const { authConfig, log } = outsideSetup()
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url))
const run = promisify(execFile)

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return authConfig({ providers: [credentialsProvider(), oauthProvider()], ...overrides })
}

function request(method: string, path: string, init: RequestInit = {}): Request {
  return new Request(new URL(path, "http://localhost:3000"), { ...init, method })
}

function allowOf(response: Response): string[] {
  return (response.headers.get("allow") ?? "")
    .split(",")
    .map((method) => method.trim())
    .filter(Boolean)
    .sort()
}

function setCookieNames(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.slice(0, cookie.indexOf("=")))
}

/** The documented routes (docs/configuration.md "Routes", sessions.md, two-factor.md). */
const ROUTES: { path: string; methods: string[] }[] = [
  { path: "/auth/signin", methods: ["GET", "POST"] },
  { path: "/auth/signout", methods: ["GET", "POST"] },
  { path: "/auth/session", methods: ["GET", "POST"] },
  { path: "/auth/csrf", methods: ["GET"] },
  { path: "/auth/providers", methods: ["GET"] },
  { path: "/auth/error", methods: ["GET"] },
  { path: "/auth/verify-request", methods: ["GET"] },
  { path: "/auth/callback/github", methods: ["GET", "POST"] },
  { path: "/auth/callback/credentials", methods: ["POST"] },
  { path: "/auth/callback/passkey", methods: ["POST"] },
  { path: "/auth/webauthn-options/passkey", methods: ["GET"] },
  { path: "/auth/sessions", methods: ["GET"] },
  { path: "/auth/sessions/revoke", methods: ["POST"] },
  { path: "/auth/two-factor/status", methods: ["GET"] },
  { path: "/auth/two-factor/setup", methods: ["POST"] },
  { path: "/auth/two-factor/enable", methods: ["POST"] },
  { path: "/auth/two-factor/disable", methods: ["POST"] },
  { path: "/auth/callback/two-factor", methods: ["POST"] },
]

function fullConfig(): AuthConfig {
  return config({
    adapter: MemoryAdapter(),
    session: { strategy: "jwt" },
    providers: [credentialsProvider(), oauthProvider(), Passkey({})],
    experimental: { enableWebAuthn: true },
  })
}

describe("one route table: every action answers exactly its documented methods", () => {
  // PUT, DELETE, PATCH, HEAD, OPTIONS (TRACE cannot be built as a `Request`).
  const OTHERS = ["PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "GET", "POST"]

  for (const route of ROUTES) {
    test(`${route.path}: ${route.methods.join(", ")}, anything else 405 with that Allow`, async () => {
      const cfg = fullConfig()
      for (const method of OTHERS.filter((m) => !route.methods.includes(m))) {
        const response = await Auth(request(method, route.path), cfg)
        expect(response.status, `${method} ${route.path}`).toBe(405)
        expect(allowOf(response), `${method} ${route.path}`).toEqual([...route.methods].sort())
        if (method !== "HEAD") {
          expect(response.headers.get("content-type")).toMatch(/^application\/json/)
          const body = (await response.json()) as Record<string, unknown>
          expect(typeof body.error).toBe("string")
          expect(typeof body.message).toBe("string")
        }
      }
      for (const method of route.methods) {
        const response = await Auth(request(method, route.path), cfg)
        expect(response.status, `${method} ${route.path}`).not.toBe(405)
        expect(response.status, `${method} ${route.path}`).not.toBe(404)
      }
    })
  }

  test("the back-channel logout route takes POST only", async () => {
    const cfg = config({
      adapter: MemoryAdapter(),
      providers: [
        {
          id: "idp",
          name: "IdP",
          type: "oidc",
          issuer: "https://idp.example",
          clientId: "id",
          clientSecret: "secret",
        },
      ],
    })
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await Auth(request(method, "/auth/backchannel-logout/idp"), cfg)
      expect(response.status, method).toBe(405)
      expect(allowOf(response)).toEqual(["POST"])
    }
  })
})

describe("unknown actions and providers", () => {
  const UNKNOWN = [
    ["GET", "/auth/nothing-here"],
    ["POST", "/auth/nothing-here"],
    ["GET", "/auth/SESSION"],
    ["GET", "/auth//session"],
    ["GET", "/auth/callback/nobody"],
    ["POST", "/auth/callback/nobody"],
    ["GET", "/auth/webauthn-options/nobody"],
    ["POST", "/auth/signin/nobody"],
  ] as const

  for (const [method, path] of UNKNOWN)
    test(`${method} ${path}: 404 JSON { error, message }`, async () => {
      const cfg = fullConfig()
      const { token, jar } = await csrfToken(cfg)
      const init: RequestInit =
        method === "POST"
          ? {
              headers: {
                "content-type": "application/x-www-form-urlencoded",
                cookie: jar.header(),
              },
              body: new URLSearchParams({ csrfToken: token }).toString(),
            }
          : {}
      const response = await Auth(request(method, path, init), cfg)
      expect(response.status).toBe(404)
      expect(response.headers.get("content-type")).toMatch(/^application\/json/)
      const body = (await response.json()) as Record<string, unknown>
      expect(typeof body.error).toBe("string")
      expect(typeof body.message).toBe("string")
    })

  test("a path that is no route is 404 whatever the method: no Allow for a resource that is not there", async () => {
    const cfg = fullConfig()
    for (const [method, path] of [
      ["GET", "/auth/session/extra"],
      ["PUT", "/auth/session/extra"],
      ["POST", "/auth/csrf/credentials"],
      ["GET", "/auth/sessions/revoke/extra"],
      ["PUT", "/auth/callback"],
      ["GET", "/auth/backchannel-logout"],
      ["PUT", "/auth/callback/nobody"],
      ["DELETE", "/auth/signin/nobody"],
      ["GET", "/auth/backchannel-logout/nobody"],
    ] as const) {
      const response = await Auth(request(method, path), cfg)
      expect(response.status, `${method} ${path}`).toBe(404)
      expect(response.headers.get("allow"), `${method} ${path}`).toBeNull()
    }
  })

  test("an unknown provider answers 404 to a fetch client sending X-Auth-Return-Redirect too", async () => {
    const cfg = config()
    const { token, jar } = await csrfToken(cfg)
    const response = await Auth(
      post(
        "/auth/signin/nobody",
        { csrfToken: token },
        { jar, headers: { "x-auth-return-redirect": "1" } },
      ),
      cfg,
    )
    expect(response.status).toBe(404)
    expect(Object.keys((await response.json()) as object).sort()).toEqual(["error", "message"])
  })
})

describe("CSRF exactly where documented", () => {
  test("POST signin/<provider> without the token does not start a sign-in (error=Signin)", async () => {
    const cfg = config()
    const response = await Auth(post("/auth/signin/github", {}), cfg)
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin).toBe("http://localhost:3000")
    expect(location.searchParams.get("error")).toBe("Signin")
  })

  test("POST signin/<provider> with the token starts it", async () => {
    const cfg = config()
    const { token, jar } = await csrfToken(cfg)
    const response = await Auth(post("/auth/signin/github", { csrfToken: token }, { jar }), cfg)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toMatch(/^https:\/\/gh\.example\/authorize\?/)
  })

  test("the credentials callback needs the token: the right password alone signs nobody in", async () => {
    const cfg = config()
    const response = await Auth(
      post("/auth/callback/credentials", { username: "ada", password: "correct horse" }),
      cfg,
    )
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe("Signin")
    const jar = new Jar()
    jar.update(response)
    const session = await Auth(get("/auth/session", { jar }), cfg)
    expect(await session.json()).toBeNull()
  })

  test("POST signout without the token leaves the session; with it, ends it", async () => {
    const cfg = config()
    const { jar } = await signIn(cfg)
    await Auth(post("/auth/signout", {}, { jar }), cfg)
    const still = (await (await Auth(get("/auth/session", { jar }), cfg)).json()) as {
      user?: { email?: string }
    }
    expect(still?.user?.email).toBe(ADA.email)
    const { token } = await csrfToken(cfg, jar)
    jar.update(await Auth(post("/auth/signout", { csrfToken: token }, { jar }), cfg))
    expect(await (await Auth(get("/auth/session", { jar }), cfg)).json()).toBeNull()
  })

  test("POST session (update) runs the jwt callback's update only with the token", async () => {
    const triggers: unknown[] = []
    const cfg = config({
      callbacks: {
        jwt({ token, trigger }) {
          if (trigger === "update") triggers.push(trigger)
          return token
        },
      },
    })
    const { jar } = await signIn(cfg)
    await Auth(post("/auth/session", { data: { name: "x" } }, { jar, json: true }), cfg)
    expect(triggers).toEqual([])
    const { token } = await csrfToken(cfg, jar)
    await Auth(post("/auth/session", { csrfToken: token, data: {} }, { jar, json: true }), cfg)
    expect(triggers).toEqual(["update"])
  })

  test("POST sessions/revoke without the token ends nothing", async () => {
    const cfg = config({ adapter: MemoryAdapter(), session: { strategy: "jwt" } })
    const { jar } = await signIn(cfg)
    const list = (await (await Auth(get("/auth/sessions", { jar }), cfg)).json()) as {
      id: string
    }[]
    expect(list).toHaveLength(1)
    const response = await Auth(post("/auth/sessions/revoke", { id: list[0]!.id }, { jar }), cfg)
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    const after = (await (await Auth(get("/auth/session", { jar }), cfg)).json()) as {
      user?: { email?: string }
    }
    expect(after?.user?.email).toBe(ADA.email)
  })

  test("POST two-factor/setup without the token sets nothing up", async () => {
    const cfg = config({ adapter: MemoryAdapter(), session: { strategy: "jwt" } })
    const { jar } = await signIn(cfg)
    const response = await Auth(post("/auth/two-factor/setup", {}, { jar }), cfg)
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    expect(JSON.stringify(await response.json())).not.toMatch(/recoveryCodes|otpauth/)
  })

  test("an OAuth callback the provider POSTs (form_post), cross-site and with no token, is not a CSRF refusal", async () => {
    const cfg = config()
    const response = await Auth(
      post(
        "/auth/callback/github",
        { code: "abc", state: "xyz" },
        { headers: { origin: "https://gh.example", "sec-fetch-site": "cross-site" } },
      ),
      cfg,
    )
    // It fails on the flow's own checks (no PKCE cookie here), not on CSRF (`error=Signin`).
    const location = new URL(response.headers.get("location")!)
    expect(location.searchParams.get("error")).toBe("OAuthCallbackError")
  })

  test("skipCSRFCheck: the csrf action answers 404 and POSTs need no token", async () => {
    const cfg = config({ skipCSRFCheck })
    expect((await Auth(get("/auth/csrf"), cfg)).status).toBe(404)
    const response = await Auth(post("/auth/signin/github", {}), cfg)
    expect(response.headers.get("location")).toMatch(/^https:\/\/gh\.example\/authorize\?/)
  })
})

describe("JSON or page, as each action declares", () => {
  test("session, csrf, providers, webauthn-options and sessions answer JSON; the pages HTML", async () => {
    const cfg = fullConfig()
    const { jar } = await signIn(cfg)
    for (const path of [
      "/auth/session",
      "/auth/csrf",
      "/auth/providers",
      "/auth/webauthn-options/passkey?action=authenticate",
      "/auth/sessions",
    ]) {
      const response = await Auth(get(path, { jar }), cfg)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("content-type"), path).toMatch(/^application\/json/)
    }
    for (const path of ["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"]) {
      const response = await Auth(get(path), cfg)
      expect(response.headers.get("content-type"), path).toMatch(/^text\/html/)
    }
  })

  test("a broken configuration: JSON { message } for the API actions, the error page for pages", async () => {
    const { logger } = recordingLogger()
    const broken: AuthConfig = { providers: [credentialsProvider()], trustHost: true, logger }
    for (const path of [
      "/auth/session",
      "/auth/csrf",
      "/auth/providers",
      "/auth/webauthn-options/passkey",
    ]) {
      const response = await Auth(get(path), broken)
      expect(response.status, path).toBe(500)
      expect(Object.keys((await response.json()) as object), path).toEqual(["message"])
    }
    for (const path of ["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"]) {
      const response = await Auth(get(path), broken)
      expect(response.status, path).toBe(500)
      expect(response.headers.get("content-type"), path).toMatch(/^text\/html/)
    }
    // A POST from a fetch client (X-Auth-Return-Redirect: 1) gets the JSON too.
    const fetched = await Auth(
      post("/auth/signin/github", {}, { headers: { "x-auth-return-redirect": "1" } }),
      broken,
    )
    expect(fetched.status).toBe(500)
    expect(Object.keys((await fetched.json()) as object)).toEqual(["message"])
  })
})

describe("the handler sets each cookie once", () => {
  test("no response of a sign-in, a session read or a sign-out sets the same cookie twice", async () => {
    const cfg = config()
    const jar = new Jar()
    const csrf = await Auth(get("/auth/csrf", { jar }), cfg)
    jar.update(csrf)
    const { csrfToken: token } = (await csrf.json()) as { csrfToken: string }
    const responses = [csrf, await Auth(get("/auth/signin", { jar }), cfg)]
    const signedIn = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token, callbackUrl: "/x" },
        { jar },
      ),
      cfg,
    )
    jar.update(signedIn)
    responses.push(signedIn)
    expect(setCookieNames(signedIn).some((name) => name.includes("session-token"))).toBe(true)
    responses.push(await Auth(post("/auth/signin/github", { csrfToken: token }, { jar }), cfg))
    responses.push(await Auth(get("/auth/session", { jar }), cfg))
    const signedOut = await Auth(post("/auth/signout", { csrfToken: token }, { jar }), cfg)
    responses.push(signedOut)
    for (const response of responses) {
      const names = setCookieNames(response)
      expect(names).toEqual([...new Set(names)])
    }
  })
})

describe("the built-in pages' HTML: one element per line", () => {
  test("no line opens two elements, and none outside a script reaches 1,000 characters", async () => {
    const cfg = fullConfig()
    for (const path of [
      "/auth/signin",
      "/auth/signin?error=CredentialsSignin",
      "/auth/signout",
      "/auth/error?error=AccessDenied",
      "/auth/verify-request",
    ]) {
      // A script's code is one element's content (the passkey page inlines a minified library).
      const html = (await (await Auth(get(path), cfg)).text()).replace(
        /(<script\b[^>]*>)[\s\S]*?(<\/script>)/g,
        "$1$2",
      )
      const lines = html.split("\n")
      for (const line of lines) {
        expect(line.length, `${path}: ${line.slice(0, 80)}`).toBeLessThan(1000)
        expect((line.match(/<[a-z]/gi) ?? []).length, `${path}: ${line}`).toBeLessThanOrEqual(1)
      }
    }
  })
})

describe("one module builds every action URL, on the trusted origin and basePath", () => {
  test("providers' URLs, the sign-in page's forms and redirects all carry basePath", async () => {
    const cfg = config({ url: "https://app.example/api/auth", basePath: "/api/auth" })
    const base = "https://app.example/api/auth"
    const providers = (await (
      await Auth(get("/api/auth/providers", { origin: "https://app.example" }), cfg)
    ).json()) as Record<string, { signinUrl: string; callbackUrl: string }>
    expect(providers.github).toMatchObject({
      signinUrl: `${base}/signin/github`,
      callbackUrl: `${base}/callback/github`,
    })
    expect(providers.credentials).toMatchObject({
      signinUrl: `${base}/signin/credentials`,
      callbackUrl: `${base}/callback/credentials`,
    })
    const page = await (
      await Auth(get("/api/auth/signin", { origin: "https://app.example" }), cfg)
    ).text()
    const actions = [...page.matchAll(/<form\b[^>]*\baction="([^"]*)"/g)].map((m) => m[1]!)
    expect(actions.length).toBeGreaterThanOrEqual(2)
    for (const action of actions)
      expect(new URL(action, base).href.startsWith(`${base}/`)).toBe(true)
    const { token, jar } = await csrfToken(cfg, new Jar(), "https://app.example", "/api/auth")
    const started = await Auth(
      post("/api/auth/signin/github", { csrfToken: token }, { jar, origin: "https://app.example" }),
      cfg,
    )
    const authorize = new URL(started.headers.get("location")!)
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${base}/callback/github`)
  })
})

describe("state with an owner: configurations with different secrets do not share keys", () => {
  test("each accepts only its own session cookies, whatever order they run in", async () => {
    const a = config()
    const b = config({ secret: OTHER_SECRET })
    const { jar: jarA } = await signIn(a)
    const { jar: jarB } = await signIn(b)
    const session = async (cfg: AuthConfig, jar: Jar) =>
      ((await (await Auth(get("/auth/session", { jar }), cfg)).json()) as { user?: unknown } | null)
        ?.user ?? null
    expect(await session(b, jarA)).toBeNull()
    expect(await session(a, jarB)).toBeNull()
    expect(await session(a, jarA)).toMatchObject({ email: ADA.email })
    expect(await session(b, jarB)).toMatchObject({ email: ADA.email })
    // A CSRF token made under one secret is refused under the other.
    const { token, jar } = await csrfToken(a)
    const crossed = await Auth(post("/auth/signin/github", { csrfToken: token }, { jar }), b)
    expect(new URL(crossed.headers.get("location")!).searchParams.get("error")).toBe("Signin")
  })
})

describe("state with an owner: provider metadata is cached with its configuration", () => {
  test("discovery is fetched once per configuration object, again for a new one, and retried after a failure (once the 10 s it is remembered are over)", async () => {
    const fetched: string[] = []
    let failNext = true
    const metadata = {
      issuer: "https://idp.example",
      authorization_endpoint: "https://idp.example/authorize",
      token_endpoint: "https://idp.example/token",
      jwks_uri: "https://idp.example/jwks",
    }
    const discovery = async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input)
      fetched.push(url)
      if (failNext) {
        failNext = false
        return new Response("unavailable", { status: 503 })
      }
      return Response.json(metadata)
    }
    const make = () =>
      config({
        providers: [
          {
            id: "idp",
            name: "IdP",
            type: "oidc",
            issuer: "https://idp.example",
            clientId: "id",
            clientSecret: "secret",
            [customFetch]: discovery,
          },
        ],
      })
    const start = async (cfg: AuthConfig) => {
      const { token, jar } = await csrfToken(cfg)
      const response = await Auth(post("/auth/signin/idp", { csrfToken: token }, { jar }), cfg)
      return response.headers.get("location") ?? ""
    }
    const first = make()
    // The first fetch fails: the sign-in fails, and so do the next 10 s of them, without a fetch.
    expect(await start(first)).not.toMatch(/^https:\/\/idp\.example\/authorize/)
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      expect(await start(first)).not.toMatch(/^https:\/\/idp\.example\/authorize/)
      expect(fetched).toHaveLength(1)
      vi.setSystemTime(Date.now() + 10_000)
      expect(await start(first)).toMatch(/^https:\/\/idp\.example\/authorize\?/)
    } finally {
      vi.useRealTimers()
    }
    expect(await start(first)).toMatch(/^https:\/\/idp\.example\/authorize\?/)
    expect(fetched).toHaveLength(2)
    expect(await start(make())).toMatch(/^https:\/\/idp\.example\/authorize\?/)
    expect(fetched).toHaveLength(3)
    expect(new Set(fetched)).toEqual(
      new Set(["https://idp.example/.well-known/openid-configuration"]),
    )
    // The failed discovery was a server fault, logged as such.
    expect(log.errors.splice(0).length).toBeGreaterThanOrEqual(1)
  })
})

describe("@tessera/core/jwt stays the public API after the split", () => {
  test("encode/decode round-trip under a salt, and getToken reads the session cookie", async () => {
    const jwt = await encode({ token: { sub: "u1", name: "Ada" }, secret: SECRET, salt: "s" })
    expect(await decode({ token: jwt, secret: SECRET, salt: "s" })).toMatchObject({
      sub: "u1",
      name: "Ada",
    })
    await expect(decode({ token: jwt, secret: OTHER_SECRET, salt: "s" })).rejects.toThrow()
    const cfg = config()
    const { jar } = await signIn(cfg)
    const token = await getToken({ req: get("/", { jar }), secret: SECRET })
    expect(token).toMatchObject({ email: ADA.email })
  })
})

// Auth.js 0.41.3's error classes and their static `type`/`kind` (from its errors.js).
const AUTHJS_ERRORS: Record<string, "signIn" | "error"> = {
  AccessDenied: "error",
  AccountNotLinked: "signIn",
  AdapterError: "error",
  CallbackRouteError: "error",
  CredentialsSignin: "signIn",
  DuplicateConditionalUI: "error",
  EmailSignInError: "signIn",
  ErrorPageLoop: "error",
  EventError: "error",
  ExperimentalFeatureNotEnabled: "error",
  InvalidCallbackUrl: "error",
  InvalidCheck: "error",
  InvalidEndpoints: "error",
  InvalidProvider: "error",
  JWTSessionError: "error",
  MissingAdapter: "error",
  MissingAdapterMethods: "error",
  MissingAuthorize: "error",
  MissingCSRF: "signIn",
  MissingSecret: "error",
  MissingWebAuthnAutocomplete: "error",
  OAuthAccountNotLinked: "signIn",
  OAuthCallbackError: "signIn",
  OAuthProfileParseError: "error",
  OAuthSignInError: "signIn",
  SessionTokenError: "error",
  SignOutError: "error",
  UnknownAction: "error",
  UnsupportedStrategy: "error",
  UntrustedHost: "error",
  Verification: "error",
  WebAuthnVerificationError: "error",
}

type ErrorClass = (new (message?: string) => errors.AuthError) & { type: string; kind: string }

describe("@tessera/core/errors: one class per failure, a stable type, Auth.js's names", () => {
  const exported = Object.entries(errors).filter(
    (entry): entry is [string, ErrorClass] =>
      typeof entry[1] === "function" && entry[1].prototype instanceof Error,
  )

  test("every Auth.js error class is exported under its name, with its type and kind", () => {
    for (const [name, kind] of Object.entries(AUTHJS_ERRORS)) {
      const Class = (errors as unknown as Record<string, ErrorClass>)[name]
      expect(Class, name).toBeTypeOf("function")
      expect(Class!.type, name).toBe(name)
      expect(Class!.kind, name).toBe(kind)
    }
    expect(errors.isClientError).toBeTypeOf("function")
  })

  test("each class is an AuthError whose instances carry the class's type, kind and name", () => {
    for (const [name, Class] of exported) {
      const error = new Class("m")
      expect(error, name).toBeInstanceOf(errors.AuthError)
      expect(error.type, name).toBe(Class.type)
      expect((error as { kind?: string }).kind, name).toBe(Class.kind)
      expect(["signIn", "error"], name).toContain(Class.kind)
      expect(error.name, name).toBe(name)
    }
  })

  test("one class per failure: no two concrete classes share a type", () => {
    // SignInError is the abstract base of the sign-in failures (as in Auth.js): no type of its own.
    const concrete = exported.filter(([name]) => name !== "SignInError" && name !== "AuthError")
    const types = concrete.map(([, Class]) => Class.type)
    expect(types).toEqual([...new Set(types)])
    for (const [name, Class] of concrete) expect(Class.type, name).toBe(name)
  })

  test("the spec's constructor: (message?, errorOptions?), an Error as cause lands in cause.err", () => {
    const original = new Error("driver failed")
    expect(new errors.AdapterError(original).cause).toMatchObject({ err: original })
    expect(new errors.AuthError("m", { cause: { err: original } }).cause).toMatchObject({
      err: original,
    })
    expect(new errors.AuthError({ cause: { err: original } }).cause).toMatchObject({
      err: original,
    })
    expect(new errors.CredentialsSignin().code).toBe("credentials")
  })

  test("a thrown CredentialsSignin subclass's code reaches the sign-in page; kind picks the page", async () => {
    const cfg = config()
    const { response } = await signIn(cfg, { username: "throw", password: "x" })
    const location = new URL(response.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("invalid_login")
    // A failure of kind "error" (a callback that denies) lands on the error page.
    const denied = config({ callbacks: { signIn: () => false } })
    const { response: refused } = await signIn(denied)
    const deniedAt = new URL(refused.headers.get("location")!)
    expect(deniedAt.pathname).toBe("/auth/error")
    expect(deniedAt.searchParams.get("error")).toBe("AccessDenied")
  })

  test("a client mistake is not logged at error level; a callback's crash is, in full", async () => {
    const cfg = config()
    await Auth(post("/auth/signin/github", {}), cfg)
    await signIn(cfg, { username: "nobody", password: "x" })
    expect(log.errors).toEqual([])
    const { response } = await signIn(cfg, { username: "crash", password: "x" })
    expect(new URL(response.headers.get("location")!).searchParams.get("error")).toBe(
      "Configuration",
    )
    const logged = log.errors.splice(0)
    expect(logged.length).toBeGreaterThanOrEqual(1)
    expect(logged[0]).toBeInstanceOf(errors.AuthError)
  })
})

describe("@param/@see on every public export, as an app's editor shows them", () => {
  test("every exported function, class and constant of the built entry points is documented", () => {
    const require = createRequire(join(ROOT, "package.json"))
    const entries = [
      "@tessera/core",
      "@tessera/core/jwt",
      "@tessera/core/errors",
      "@tessera/core/password",
      "@tessera/core/rate-limit",
      "@tessera/core/sessions",
      "@tessera/core/providers/github",
      "@tessera/core/providers/credentials",
      "@tessera/testing",
      "@tessera/sql",
      "@tessera/express",
      "@tessera/hono",
    ]
    const files = entries.map((name) => require.resolve(name).replace(/\.js$/, ".d.ts"))
    const program = ts.createProgram(files, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      noEmit: true,
    })
    const checker = program.getTypeChecker()
    const undocumented: string[] = []
    files.forEach((file, i) => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!
      for (const exported of checker.getExportsOfModule(module)) {
        const symbol =
          exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
        const kinds = ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable
        if (!(symbol.flags & kinds)) continue
        const tags = symbol.getJsDocTags(checker).map((tag) => tag.name)
        const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker))
        if (!doc || !tags.includes("see")) undocumented.push(`${entries[i]}: ${exported.name}`)
        if (symbol.flags & ts.SymbolFlags.Function) {
          const declaration = symbol.declarations?.[0]
          const parameters =
            declaration && ts.isFunctionDeclaration(declaration) ? declaration.parameters : []
          if (parameters.length > 0 && !tags.includes("param"))
            undocumented.push(`${entries[i]}: ${exported.name} (@param)`)
        }
      }
    })
    expect(undocumented).toEqual([])
  })
})

/** Runs an ES module as an app would: a child `node` (or bun/deno) in the repository. */
async function runModule(source: string, command = process.execPath, args: string[] = []) {
  const dir = await mkdtemp(join(ROOT, ".issue10-"))
  try {
    const file = join(dir, "app.mjs")
    await writeFile(file, source)
    const { stdout } = await run(command, [...args, file], { cwd: ROOT, timeout: 60_000 })
    return JSON.parse(stdout.trim().split("\n").pop()!) as unknown
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

describe("the built packages, imported by name as an app would", () => {
  test("every documented subpath loads from dist with its documented exports", async () => {
    const expected: Record<string, string[]> = {
      "@tessera/core": [
        "Auth",
        "getSession",
        "setEnvDefaults",
        "skipCSRFCheck",
        "raw",
        "createActionURL",
        "isAuthAction",
        "customFetch",
      ],
      "@tessera/core/jwt": ["encode", "decode", "getToken"],
      "@tessera/core/errors": [
        "AuthError",
        "CredentialsSignin",
        "MissingCSRF",
        "isClientError",
        "publicErrorOf",
      ],
      "@tessera/core/types": [],
      "@tessera/core/adapters": [],
      "@tessera/core/password": ["hashPassword", "verifyPassword"],
      "@tessera/core/rate-limit": ["createRateLimiter"],
      "@tessera/core/sessions": [
        "listSessions",
        "revokeSession",
        "revokeUserSessions",
        "getSessionId",
      ],
      "@tessera/core/providers/github": ["default"],
      "@tessera/core/providers/google": ["default"],
      "@tessera/core/providers/credentials": ["default"],
      "@tessera/core/providers/passkey": ["default"],
      "@tessera/core/providers/nodemailer": ["default"],
      "@tessera/testing": [
        "MemoryAdapter",
        "runAdapterTests",
        "runProviderTests",
        "startOidcProvider",
        "startMailSink",
        "HttpBrowser",
        "SoftAuthenticator",
      ],
      "@tessera/testing/webauthn-authenticator": ["SoftAuthenticator"],
      "@tessera/sql": ["SqlAdapter"],
      "@tessera/redis": ["RedisRateLimitStore"],
      "@tessera/express/providers/github": ["default"],
      "@tessera/express": ["ExpressAuth", "getSession"],
      "@tessera/hono": ["initAuthConfig", "authHandler", "verifyAuth"],
    }
    const found = (await runModule(`
      const names = ${JSON.stringify(Object.keys(expected))}
      const out = {}
      for (const name of names) {
        const m = await import(name)
        out[name] = { keys: Object.keys(m), url: import.meta.resolve(name) }
      }
      console.log(JSON.stringify(out))
    `)) as Record<string, { keys: string[]; url: string }>
    for (const [name, keys] of Object.entries(expected)) {
      expect(found[name]!.url, name).toMatch(/\/dist\//)
      expect(found[name]!.keys, name).toEqual(expect.arrayContaining(keys))
    }
    // MemoryAdapter moved out of @tessera/core/adapters.
    expect(found["@tessera/core/adapters"]!.keys).not.toContain("MemoryAdapter")
    expect(found["@tessera/core/providers/github"]!.keys).toContain("default")
  })

  test("a provider subpath's default export is its factory, as in Auth.js", async () => {
    const out = await runModule(`
      const { default: GitHub } = await import("@tessera/core/providers/github")
      const p = GitHub({ clientId: "a", clientSecret: "b" })
      console.log(JSON.stringify({ id: p.id, type: p.type }))
    `)
    expect(out).toEqual({ id: "github", type: "oauth" })
  })

  test("@tessera/testing's entry loads without vitest installed (an optional peer)", async () => {
    const hooks = `data:text/javascript,${encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        if (specifier === "vitest" || specifier.startsWith("vitest/") || specifier.startsWith("@vitest/"))
          throw Object.assign(new Error("Cannot find package 'vitest'"), { code: "ERR_MODULE_NOT_FOUND" })
        return next(specifier, context)
      }`)}`
    const out = await runModule(`
      import { register } from "node:module"
      register(${JSON.stringify(hooks)})
      const testing = await import("@tessera/testing")
      const adapter = testing.MemoryAdapter()
      const user = await adapter.createUser({ id: "u1", email: "a@b.example", emailVerified: null })
      let suites = "loaded"
      try { await import("@tessera/testing/suites") } catch { suites = "needs vitest" }
      console.log(JSON.stringify({ user: user.email, suites }))
    `)
    expect(out).toEqual({ user: "a@b.example", suites: "needs vitest" })
  })

  test("every package is side-effect free and core's browser passkey code is not a runtime dependency", async () => {
    const out = (await runModule(`
      import { createRequire } from "node:module"
      const require = createRequire(import.meta.url)
      const names = ["core", "sql", "redis", "express", "hono", "sveltekit", "testing"]
      const out = {}
      // What a built module of core would load at run time: no import of the browser library.
      const { readdirSync, readFileSync } = await import("node:fs")
      const { dirname, join } = await import("node:path")
      const dist = join(dirname(require.resolve("@tessera/core/package.json")), "dist")
      const specifiers = ['"@simplewebauthn/browser"', "'@simplewebauthn/browser'"]
      const imports = (code) => specifiers.some((q) => code.includes("from " + q) || code.includes("import(" + q))
      out.browserImports = readdirSync(dist, { recursive: true })
        .filter((f) => String(f).endsWith(".js"))
        .filter((f) => imports(readFileSync(join(dist, String(f)), "utf8")))
      for (const n of names) {
        const pkg = require("@tessera/" + n + "/package.json")
        out[n] = { sideEffects: pkg.sideEffects, deps: Object.keys(pkg.dependencies ?? {}) }
      }
      console.log(JSON.stringify(out))
    `)) as Record<string, { sideEffects: unknown; deps: string[] }> & { browserImports?: string[] }
    expect(out.browserImports).toEqual([])
    delete out.browserImports
    for (const [name, pkg] of Object.entries(out)) {
      expect(pkg.sideEffects === false || Array.isArray(pkg.sideEffects), name).toBe(true)
    }
    expect(out.core!.deps).not.toContain("@simplewebauthn/browser")
  })
})

describe("a second runtime: Auth() on Bun and Deno with their own Request/Response", () => {
  const app = `
    import { Auth } from "@tessera/core"
    import Credentials from "@tessera/core/providers/credentials"
    const config = {
      secret: ${JSON.stringify(SECRET)},
      trustHost: true,
      providers: [Credentials({ credentials: { username: {} }, authorize: (c) => (c.username === "ada" ? { id: "1", name: "Ada" } : null) })],
    }
    const at = (path, init) => new Request("http://localhost:3000" + path, init)
    const csrf = await Auth(at("/auth/csrf"), config)
    const { csrfToken } = await csrf.json()
    const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ")
    const signedIn = await Auth(at("/auth/callback/credentials", { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ username: "ada", csrfToken }) }), config)
    const session = signedIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ")
    const read = await (await Auth(at("/auth/session", { headers: { cookie: session } }), config)).json()
    const put = await Auth(at("/auth/session", { method: "PUT" }), config)
    console.log(JSON.stringify({ status: signedIn.status, name: read?.user?.name ?? null, put: put.status, allow: put.headers.get("allow") }))
  `
  const expected = { status: 302, name: "Ada", put: 405, allow: expect.stringMatching(/GET/) }

  test("Bun", async () => {
    expect(await runModule(app, join(ROOT, "node_modules/.bin/bun"), ["run"])).toEqual(expected)
  })

  test("Deno", async () => {
    expect(await runModule(app, join(ROOT, "node_modules/.bin/deno"), ["run", "-A"])).toEqual(
      expected,
    )
  })
})
