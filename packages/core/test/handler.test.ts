/**
 * Routing and the shape of responses: the nine actions and their methods under
 * `basePath`, 4xx answers for requests that name nothing valid, `raw` mode,
 * `X-Auth-Return-Redirect`, and the logger.
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import {
  Auth,
  createActionURL,
  isAuthAction,
  raw,
  skipCSRFCheck,
  customFetch,
  type AuthConfig,
} from "@tessera/core"
import {
  ORIGIN,
  SECRET,
  credentialsProvider,
  csrfToken,
  get,
  makeConfig,
  post,
  sessionCookieName,
  setCookies,
  signIn,
} from "./harness/index.js"
import { MemoryAdapter } from "@tessera/testing"

const oauthProvider = {
  id: "github",
  name: "GitHub",
  type: "oauth" as const,
  authorization: "https://gh.example/login/oauth/authorize",
  token: "https://gh.example/login/oauth/access_token",
  userinfo: "https://gh.example/user",
  clientId: "client-id",
  clientSecret: "client-secret",
}

describe("the nine actions", () => {
  test("isAuthAction knows exactly the nine action names", () => {
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
    for (const action of actions) expect(isAuthAction(action)).toBe(true)
    for (const other of ["signup", "Session", "", "__proto__", "toString", "constructor"])
      expect(isAuthAction(other)).toBe(false)
  })

  test("GET actions answer under the default basePath /auth", async () => {
    const { config } = makeConfig()
    const expected: Record<string, [number, string]> = {
      "/auth/csrf": [200, "application/json"],
      "/auth/providers": [200, "application/json"],
      "/auth/session": [200, "application/json"],
      "/auth/signin": [200, "text/html; charset=utf-8"],
      "/auth/signout": [200, "text/html; charset=utf-8"],
      "/auth/error": [200, "text/html; charset=utf-8"],
      "/auth/verify-request": [200, "text/html; charset=utf-8"],
    }
    for (const [path, [status, type]] of Object.entries(expected)) {
      const response = await Auth(get(path), config)
      expect([path, response.status, response.headers.get("content-type")]).toEqual([
        path,
        status,
        type,
      ])
    }
  })

  test("providers lists each provider with its public URLs only", async () => {
    const { config } = makeConfig({ providers: [credentialsProvider(), oauthProvider] })
    const response = await Auth(get("/auth/providers"), config)
    expect(await response.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: `${ORIGIN}/auth/signin/credentials`,
        callbackUrl: `${ORIGIN}/auth/callback/credentials`,
      },
      github: {
        id: "github",
        name: "GitHub",
        type: "oauth",
        signinUrl: `${ORIGIN}/auth/signin/github`,
        callbackUrl: `${ORIGIN}/auth/callback/github`,
      },
    })
  })

  test("POST variants: signin/<provider>, signout, session, callback/<provider>", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const signInResponse = await Auth(
      post(
        "/auth/signin/credentials",
        { username: "ada", password: "correct horse", csrfToken: token },
        { jar },
      ),
      config,
    )
    expect(signInResponse.status).toBe(302)
    jar.update(signInResponse)
    expect(jar.get("tessera.session-token")).toBeTruthy()

    const update = await Auth(
      post("/auth/session", { csrfToken: token, data: "x" }, { jar }),
      config,
    )
    expect(update.status).toBe(200)
    expect(((await update.json()) as { user: { name: string } }).user.name).toBe("Ada Lovelace")

    const out = await Auth(post("/auth/signout", { csrfToken: token }, { jar }), config)
    expect(out.status).toBe(302)
    jar.update(out)
    expect(jar.get("tessera.session-token")).toBeUndefined()
  })

  test("POST signin without a provider renders the sign-in page", async () => {
    const { config } = makeConfig()
    const response = await Auth(post("/auth/signin", {}), config)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain("<h1>Sign in</h1>")
  })

  test("a custom basePath moves every action; the default path then answers 404", async () => {
    const { config } = makeConfig({ basePath: "/api/auth/" })
    const response = await Auth(get("/api/auth/session"), config)
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    const providers = (await (await Auth(get("/api/auth/providers"), config)).json()) as Record<
      string,
      { signinUrl: string }
    >
    expect(providers.credentials!.signinUrl).toBe(`${ORIGIN}/api/auth/signin/credentials`)
    const { response: signedIn } = await signIn(config, undefined, { basePath: "/api/auth" })
    expect(signedIn.status).toBe(302)
    expect((await Auth(get("/auth/session"), config)).status).toBe(404)
  })
})

describe("requests that name nothing valid get a clear 4xx", () => {
  test.each([
    ["/auth/unknown", 404, "UnknownAction"],
    ["/auth/", 404, "UnknownAction"],
    ["/auth", 404, "UnknownAction"],
    ["/other/session", 404, "UnknownAction"],
    ["/auth/session/credentials/extra", 404, "UnknownAction"],
    ["/auth/signin/nope", 404, "UnknownAction"],
    ["/auth/callback", 404, "UnknownAction"],
    ["/auth/callback/%E0%A4%A", 400, "InvalidRequest"],
    ["/auth/callback/a%2Fb", 400, "InvalidRequest"],
    ["/auth/signin/" + "a".repeat(65), 400, "InvalidRequest"],
    ["/auth/__proto__", 404, "UnknownAction"],
  ])("GET %s -> %i %s", async (path, status, type) => {
    const { config, log } = makeConfig()
    const response = await Auth(get(path), config)
    expect(response.status).toBe(status)
    expect(response.headers.get("content-type")).toBe("application/json")
    // A refusal answers one request: no cache may keep it.
    expect(response.headers.get("cache-control")).toBe("no-store")
    const body = (await response.json()) as { error: string; message: string }
    expect(body.error).toBe(type)
    expect(body.message.length).toBeGreaterThan(5)
    expect(log.errors).toEqual([])
  })

  test.each([
    ["POST", "/auth/csrf", "GET"],
    ["POST", "/auth/providers", "GET"],
    ["POST", "/auth/error", "GET"],
    ["POST", "/auth/verify-request", "GET"],
    // A configured provider: an unknown one is 404 whatever the method.
    ["POST", "/auth/webauthn-options/credentials", "GET"],
    ["PUT", "/auth/callback/credentials", "POST"],
    ["PUT", "/auth/session", "GET, POST"],
    ["DELETE", "/auth/signout", "GET, POST"],
    ["PATCH", "/auth/signin", "GET, POST"],
    ["OPTIONS", "/auth/session", "GET, POST"],
    ["HEAD", "/auth/session", "GET, POST"],
  ])("%s %s -> 405 with Allow: %s", async (method, path, allow) => {
    const { config } = makeConfig()
    const response = await Auth(new Request(ORIGIN + path, { method }), config)
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe(allow)
    expect(response.headers.get("cache-control")).toBe("no-store")
    if (method !== "HEAD")
      expect(((await response.json()) as { error: string }).error).toBe("UnknownAction")
  })

  test("GET callback/credentials is refused with 405: credentials are POSTed", async () => {
    const { config } = makeConfig()
    const response = await Auth(
      get("/auth/callback/credentials?username=ada&password=correct%20horse"),
      config,
    )
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe("POST")
    expect(setCookies(response)).toEqual([])
  })

  test("a JSON action's failure is no-store too (a POST without its CSRF token: 403)", async () => {
    const { config } = makeConfig()
    const response = await Auth(post("/auth/sessions/revoke", { sessionId: "x" }), config)
    expect(response.status).toBe(403)
    expect(response.headers.get("cache-control")).toBe("no-store")
  })

  test("webauthn-options for a provider that is not WebAuthn is a 404", async () => {
    const { config } = makeConfig()
    const response = await Auth(get("/auth/webauthn-options/credentials"), config)
    expect(response.status).toBe(404)
  })
})

describe("raw mode", () => {
  test("returns the internal result instead of a Response", async () => {
    const { config } = makeConfig()
    const { jar } = await signIn(config)
    const result = await Auth(get("/auth/session", { jar }), { ...config, raw })
    expect(result).not.toBeInstanceOf(Response)
    expect(result.body).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } })
    expect(new Headers(result.headers).get("cache-control")).toBe("private, no-cache, no-store")
    expect(result.cookies).toEqual([])
  })

  test("a redirect comes back as `redirect` with the cookies to set", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const result = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token, callbackUrl: "/dashboard" },
        { jar },
      ),
      { ...config, raw },
    )
    expect(result.redirect).toBe(`${ORIGIN}/dashboard`)
    const session = result.cookies!.find((c) => c.name === "tessera.session-token")!
    expect(session.value.split(".")).toHaveLength(5)
    expect(session.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" })
  })

  test("sign-in errors are thrown to the framework (spec, Errors rule 2), unless the client asked for JSON", async () => {
    const { config } = makeConfig({ skipCSRFCheck })
    const request = () => post("/auth/callback/credentials", { username: "throw" })
    await expect(Auth(request(), { ...config, raw })).rejects.toMatchObject({
      type: "CredentialsSignin",
      code: "invalid_login",
    })
    const asJson = post(
      "/auth/callback/credentials",
      { username: "throw" },
      { headers: { "X-Auth-Return-Redirect": "1" } },
    )
    const result = await Auth(asJson, { ...config, raw })
    expect(result.redirect).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=invalid_login`)
  })

  test("request errors stay results with their status", async () => {
    const { config } = makeConfig()
    const result = await Auth(get("/auth/nope"), { ...config, raw })
    expect(result.status).toBe(404)
  })
})

describe("X-Auth-Return-Redirect: 1", () => {
  test("a redirect becomes 200 JSON { url } with the cookies still set", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: token, callbackUrl: "/home" },
        {
          jar,
          headers: { "X-Auth-Return-Redirect": "1" },
        },
      ),
      config,
    )
    expect(response.status).toBe(200)
    expect(response.headers.get("location")).toBeNull()
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toEqual({ url: `${ORIGIN}/home` })
    expect(setCookies(response).map((c) => c.name)).toContain("tessera.session-token")
  })

  test("failed sign-ins too: the URL of the sign-in page with the error", async () => {
    const { config } = makeConfig()
    const { token, jar } = await csrfToken(config)
    const response = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "wrong", csrfToken: token },
        { jar, headers: { "X-Auth-Return-Redirect": "1" } },
      ),
      config,
    )
    expect(await response.json()).toEqual({
      url: `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`,
    })
  })

  test("without the header a redirect is a 302 with Location", async () => {
    const { config } = makeConfig()
    const { response } = await signIn(config)
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(ORIGIN)
    expect(await response.text()).toBe("")
  })
})

describe("logger", () => {
  afterEach(() => vi.restoreAllMocks())

  test("debug is off by default; error and warn go to the console", async () => {
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {})
    const error = vi.spyOn(console, "error").mockImplementation(() => {})
    const config = { secret: SECRET, trustHost: true, providers: [credentialsProvider()] }
    const { token, jar } = await csrfToken(config)
    await Auth(
      post("/auth/callback/credentials", { username: "crash", csrfToken: token }, { jar }),
      config,
    )
    expect(debug).not.toHaveBeenCalled()
    const printed = error.mock.calls.map((args) => args.join(" ")).join("\n")
    expect(printed).toContain("[tessera][error] CallbackRouteError")
    // The cause is printed for the operator.
    expect(printed).toContain("db password hunter2 leaked")
  })

  test("debug: true logs through logger.debug and warns once that it is on", async () => {
    const debug: string[] = []
    const warnings: string[] = []
    const config = {
      secret: SECRET,
      trustHost: true,
      allowedHosts: ["localhost:3000"],
      debug: true,
      providers: [credentialsProvider()],
      logger: {
        debug: (m: string) => void debug.push(m),
        warn: (c: string) => void warnings.push(c),
        error: () => {},
      },
    }
    await Auth(get("/auth/nope"), config)
    await Auth(get("/auth/nope"), config)
    expect(debug.length).toBeGreaterThan(0)
    expect(warnings).toEqual(["debug-enabled"])
  })

  test("debug: true tells each step (action, provider, adapter calls), never a secret or token", async () => {
    const lines: string[] = []
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      allowedHosts: ["localhost:3000"],
      debug: true,
      adapter,
      session: { strategy: "database" },
      providers: [credentialsProvider()],
      logger: {
        debug: (message, metadata) => void lines.push(`${message} ${JSON.stringify(metadata)}`),
        warn: () => {},
        error: () => {},
      },
    }
    const { token: csrf, jar } = await csrfToken(config)
    const signedIn = await Auth(
      post(
        "/auth/callback/credentials",
        { username: "ada", password: "correct horse", csrfToken: csrf },
        { jar },
      ),
      config,
    )
    jar.update(signedIn)
    const session = jar.get(sessionCookieName())!
    expect(session).toBeTruthy()
    await Auth(get("/auth/session", { jar }), config)

    const messages = lines.map((line) => line.split(" {")[0])
    expect(messages).toEqual(
      expect.arrayContaining([
        "request: GET csrf",
        "request: POST callback (credentials)",
        "adapter: createSession",
        "request: GET session",
        "adapter: getSessionAndUser",
        "response: redirect",
        "response: 200",
      ]),
    )
    const all = lines.join("\n")
    for (const secret of [SECRET, csrf, session, "correct horse"]) {
      expect(all).not.toContain(secret)
    }
  })

  test("a partial override replaces only that method; the others keep their defaults", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {})
    const errors: Error[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      allowedHosts: ["localhost:3000"],
      providers: [credentialsProvider()],
      skipCSRFCheck,
      logger: { error: (e: Error) => void errors.push(e) },
    }
    await Auth(post("/auth/callback/credentials", { username: "crash" }), config)
    expect(errors.map((e) => (e as { type?: string }).type)).toEqual(["CallbackRouteError"])
    expect(consoleError).not.toHaveBeenCalled()
    expect(warn.mock.calls.map((a) => String(a[0]))).toEqual([
      expect.stringContaining("[tessera][warn][csrf-disabled]"),
    ])
  })
})

describe("exports", () => {
  test("the subpaths of the issue exist: ., ./jwt, ./errors, ./types, ./adapters, ./providers/credentials", async () => {
    const pkg = (await import("../package.json", { with: { type: "json" } })).default as {
      exports: Record<string, unknown>
    }
    for (const subpath of [".", "./jwt", "./errors", "./types", "./adapters", "./providers/*"])
      expect(pkg.exports).toHaveProperty([subpath])
    const credentials = await import("@tessera/core/providers/credentials")
    expect(credentials.default({ authorize: () => null })).toMatchObject({
      id: "credentials",
      type: "credentials",
      name: "Credentials",
    })
    await expect(import("@tessera/core/types")).resolves.toBeDefined()
    await expect(import("@tessera/core/adapters")).resolves.toBeDefined()
    const jwt = await import("@tessera/core/jwt")
    expect([typeof jwt.encode, typeof jwt.decode, typeof jwt.getToken]).toEqual([
      "function",
      "function",
      "function",
    ])
  })

  test("symbols are distinct and exported", () => {
    expect(typeof skipCSRFCheck).toBe("symbol")
    expect(typeof raw).toBe("symbol")
    expect(typeof customFetch).toBe("symbol")
    expect(new Set([skipCSRFCheck, raw, customFetch]).size).toBe(3)
  })

  test("createActionURL honours AUTH_URL, then (only with trustHost) X-Forwarded-Host/Proto, then Host", () => {
    const headers = new Headers({
      host: "internal:8080",
      "x-forwarded-host": "app.example",
      "x-forwarded-proto": "https",
    })
    const trusted = { trustHost: true }
    expect(createActionURL("signin", "http", headers, {}, trusted).href).toBe(
      "https://app.example/auth/signin",
    )
    expect(
      createActionURL(
        "session",
        "http:",
        new Headers({ host: "localhost:3000" }),
        {},
        { ...trusted, basePath: "/api/auth" },
      ).href,
    ).toBe("http://localhost:3000/api/auth/session")
    // No protocol given: https, as in Auth.js.
    expect(
      createActionURL("session", undefined, new Headers({ host: "app.example" }), {}, trusted).href,
    ).toBe("https://app.example/auth/session")
    expect(
      createActionURL("signout", "http", headers, { AUTH_URL: "https://auth.example/base" }, {})
        .href,
    ).toBe("https://auth.example/base/signout")
  })
})
