/**
 * `setEnvDefaults`: values missing from the configuration come from the
 * environment, filled into the caller's object as Auth.js does; `Auth()` also
 * reads `process.env` by itself.
 */
import { describe, expect, test, vi } from "vitest"
import { Auth, createActionURL, customFetch, setEnvDefaults, type AuthConfig } from "@tessera/core"
import Resend from "@tessera/core/providers/resend"
import { MemoryAdapter } from "@tessera/testing"
import { encode } from "@tessera/core/jwt"
import GitHub from "@tessera/core/providers/github"
import {
  Browser,
  ORIGIN,
  OTHER_SECRET,
  SECRET,
  credentialsProvider,
  csrfToken,
  get,
  makeConfig,
  post,
  recordingLogger,
  signIn,
} from "../harness/index.js"

describe("Auth() reads process.env by itself", () => {
  test("AUTH_SECRET and AUTH_TRUST_HOST apply without setEnvDefaults, and the config is left as it was", async () => {
    const saved = { ...process.env }
    process.env.AUTH_SECRET = SECRET
    process.env.AUTH_TRUST_HOST = "true"
    try {
      const config: AuthConfig = { providers: [credentialsProvider()] }
      const response = await Auth(get("/auth/csrf"), config)
      expect(response.status).toBe(200)
      expect(config.secret).toBeUndefined()
    } finally {
      process.env = saved
    }
  })

  test.each([
    ["test", 200],
    ["development", 200],
    ["production", 500],
    [undefined, 500],
  ])(
    "NODE_ENV=%s, no trustHost, no AUTH_URL: GET /auth/session answers %s",
    async (nodeEnv, status) => {
      const saved = { ...process.env }
      delete process.env.AUTH_TRUST_HOST
      delete process.env.AUTH_URL
      delete process.env.VERCEL
      delete process.env.CF_PAGES
      if (nodeEnv === undefined) delete process.env.NODE_ENV
      else process.env.NODE_ENV = nodeEnv
      try {
        const response = await Auth(get("/auth/session"), { secret: SECRET, providers: [] })
        expect(response.status).toBe(status)
      } finally {
        process.env = saved
      }
    },
  )
})

describe("Auth() reads the provider variables from process.env by itself", () => {
  test("AUTH_GITHUB_ID and AUTH_GITHUB_SECRET configure a bare factory, without setEnvDefaults", async () => {
    const saved = { ...process.env }
    Object.assign(process.env, {
      AUTH_SECRET: SECRET,
      AUTH_URL: ORIGIN,
      AUTH_GITHUB_ID: "env-client-id",
      AUTH_GITHUB_SECRET: "env-client-secret",
    })
    try {
      const config: AuthConfig = { providers: [GitHub] }
      const { token, jar } = await csrfToken(config)
      const response = await Auth(
        post("/auth/signin/github", { csrfToken: token }, { jar }),
        config,
      )
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get("location")!)
      expect(location.origin).toBe("https://github.com")
      expect(location.searchParams.get("client_id")).toBe("env-client-id")
      // The caller's configuration is left as it was.
      expect(config.providers).toEqual([GitHub])
    } finally {
      process.env = saved
    }
  })
})

describe("AUTH_<PROVIDER>_KEY reaches the mail API", () => {
  // The request Resend's API gets, with the key it was sent with.
  const resendApi = () => {
    const calls: { url: string; authorization: string | null }[] = []
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      calls.push({
        url: String(url),
        authorization: new Headers(init?.headers).get("authorization"),
      })
      return Response.json({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" })
    }
    return { calls, fetch }
  }

  test.each([
    ["through setEnvDefaults, for Resend({ from })", true],
    ["through Auth() alone (process.env), for Resend({ from })", false],
  ])("%s", async (_name, explicit) => {
    const api = resendApi()
    const env = { AUTH_SECRET: SECRET, AUTH_URL: ORIGIN, AUTH_RESEND_KEY: "re_from_env" }
    const saved = { ...process.env }
    if (!explicit) Object.assign(process.env, env)
    try {
      const config: AuthConfig = {
        adapter: MemoryAdapter(),
        providers: [Resend({ from: "auth@example.com", [customFetch]: api.fetch })],
      }
      if (explicit) setEnvDefaults(env, config)
      const { token, jar } = await csrfToken(config)
      const response = await Auth(
        post("/auth/signin/resend", { email: "ada@example.com", csrfToken: token }, { jar }),
        config,
      )
      expect(response.headers.get("location")).toContain("/auth/verify-request")
      expect(api.calls).toEqual([
        { url: "https://api.resend.com/emails", authorization: "Bearer re_from_env" },
      ])
    } finally {
      process.env = saved
    }
  })

  test("the bare factory, providers: [Resend], with AUTH_RESEND_KEY from process.env", async () => {
    const api = resendApi()
    const saved = { ...process.env }
    Object.assign(process.env, {
      AUTH_SECRET: SECRET,
      AUTH_URL: ORIGIN,
      AUTH_RESEND_KEY: "re_from_env",
    })
    vi.stubGlobal("fetch", api.fetch)
    try {
      const config: AuthConfig = { adapter: MemoryAdapter(), providers: [Resend] }
      const { token, jar } = await csrfToken(config)
      const response = await Auth(
        post("/auth/signin/resend", { email: "ada@example.com", csrfToken: token }, { jar }),
        config,
      )
      expect(response.headers.get("location")).toContain("/auth/verify-request")
      expect(api.calls.map((c) => c.authorization)).toEqual(["Bearer re_from_env"])
    } finally {
      vi.unstubAllGlobals()
      process.env = saved
    }
  })
})

const github = (options: Record<string, unknown> = {}) => ({
  id: "github",
  name: "GitHub",
  type: "oauth" as const,
  authorization: "https://gh.example/authorize",
  token: "https://gh.example/token",
  ...options,
})

/** A provider factory, like the built-in ones: options in, config out (with the options kept). */
function Keycloak(options: Record<string, unknown> = {}) {
  return {
    id: "my-idp",
    name: "Keycloak",
    type: "oidc" as const,
    issuer: "https://idp.example",
    ...options,
    options,
  }
}

describe("setEnvDefaults", () => {
  test("AUTH_SECRET becomes the secret, a list of one as in Auth.js", () => {
    const config = setEnvDefaults({ AUTH_SECRET: SECRET }, { providers: [] })
    expect(config.secret).toEqual([SECRET])
    expect(config.secret?.[0]).toBe(SECRET)
  })

  test("AUTH_SECRET_1.._3 are added for rotation in Auth.js's order: [_3, _2, _1, AUTH_SECRET]", () => {
    const config = setEnvDefaults(
      { AUTH_SECRET: SECRET, AUTH_SECRET_1: OTHER_SECRET, AUTH_SECRET_3: "third".repeat(8) },
      { providers: [] },
    )
    expect(config.secret).toEqual(["third".repeat(8), OTHER_SECRET, SECRET])
  })

  test("fills the caller's configuration in place and returns it", async () => {
    const config: AuthConfig = { providers: [credentialsProvider()] }
    expect(setEnvDefaults({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" }, config)).toBe(config)
    expect(config.secret).toEqual([SECRET])
    expect(config.trustHost).toBe(true)
    // The Auth.js pattern: call it for its effect, then pass the same object.
    expect((await Auth(get("/auth/session"), config)).status).toBe(200)
  })

  test("AUTH_<PROVIDER>_KEY becomes an e-mail provider's apiKey", () => {
    const resend = { id: "resend", type: "email" as const, name: "Resend" }
    const [filled] = setEnvDefaults({ AUTH_RESEND_KEY: "re_123" }, { providers: [resend as any] })
      .providers as any[]
    expect(filled.apiKey).toBe("re_123")
  })

  test("a secret in the configuration wins over the environment", () => {
    expect(
      setEnvDefaults({ AUTH_SECRET: OTHER_SECRET }, { providers: [], secret: SECRET }).secret,
    ).toBe(SECRET)
  })

  test("rotation end to end: a session made with the older secret is accepted and re-issued with the newer one on that request", async () => {
    const log = recordingLogger()
    const config = (env: Record<string, string>) =>
      setEnvDefaults(
        { ...env, AUTH_TRUST_HOST: "true" },
        { providers: [credentialsProvider()], logger: log.logger, debug: true },
      )
    const { jar } = await signIn(config({ AUTH_SECRET: OTHER_SECRET }))
    const before = jar.get("tessera.session-token")
    // AUTH_SECRET_1 is the newer secret; the old AUTH_SECRET still decodes.
    const rotated = config({ AUTH_SECRET: OTHER_SECRET, AUTH_SECRET_1: SECRET })
    const response = await Auth(get("/auth/session", { jar }), rotated)
    expect(((await response.json()) as { user: { email: string } }).user.email).toBe(
      "ada@example.com",
    )
    jar.update(response)
    const after = jar.get("tessera.session-token")
    expect(after).not.toBe(before)
    // The re-issued cookie needs only the newer secret.
    const onlyNew = config({ AUTH_SECRET: SECRET })
    expect(await (await Auth(get("/auth/session", { jar }), onlyNew)).json()).toMatchObject({
      user: { email: "ada@example.com" },
    })
    // Without the secret that made a cookie, it is refused (and cleared): a client-side failure.
    const stranger = config({ AUTH_SECRET: "a-third-secret-0123456789abcdef-0123456789" })
    expect(await (await Auth(get("/auth/session", { jar }), stranger)).json()).toBeNull()
    expect(log.errors).toEqual([])
    expect(log.refusals.map((e) => (e as { type?: string }).type)).toEqual(["JWTSessionError"])
  })

  test("AUTH_URL becomes the canonical url, sets the basePath from its path and trusts the host", () => {
    const config = setEnvDefaults({ AUTH_URL: "https://app.example/api/auth/" }, { providers: [] })
    expect(config.url).toBe("https://app.example/api/auth/")
    expect(config.basePath).toBe("/api/auth")
    expect(config.trustHost).toBe(true)
    expect(
      setEnvDefaults({ AUTH_URL: "https://app.example" }, { providers: [] }).basePath,
    ).toBeUndefined()
    expect(
      setEnvDefaults({ AUTH_URL: "https://app.example/x" }, { providers: [], basePath: "/auth" })
        .basePath,
    ).toBe("/auth")
  })

  test.each([
    [{ AUTH_TRUST_HOST: "true", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "1", NODE_ENV: "production" }, true],
    [{ AUTH_TRUST_HOST: "false", NODE_ENV: "production" }, false],
    [{ AUTH_TRUST_HOST: "0" }, false],
    [{ NODE_ENV: "production" }, false],
    [{ NODE_ENV: "development" }, true],
    // Platforms that own the Host header.
    [{ VERCEL: "1", NODE_ENV: "production" }, true],
    [{ CF_PAGES: "1", NODE_ENV: "production" }, true],
    // Outside production, as in Auth.js: a dev server or a test runner (Vitest sets "test").
    [{ NODE_ENV: "test" }, true],
    // No NODE_ENV (adapter-node never sets it), or one naming a deployment: not trusted.
    [{}, false],
    [{ NODE_ENV: "" }, false],
    [{ NODE_ENV: "staging" }, false],
    [{ NODE_ENV: "Production" }, false],
  ])("trustHost from %j -> %s", (env, expected) => {
    expect(setEnvDefaults(env, { providers: [] }).trustHost).toBe(expected)
  })

  test("an explicit trustHost: false is kept", () => {
    expect(
      setEnvDefaults({ AUTH_TRUST_HOST: "true" }, { providers: [], trustHost: false }).trustHost,
    ).toBe(false)
  })

  test("AUTH_REDIRECT_PROXY_URL fills redirectProxyUrl unless set", () => {
    expect(
      setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://proxy.example/auth" }, { providers: [] })
        .redirectProxyUrl,
    ).toBe("https://proxy.example/auth")
    expect(
      setEnvDefaults(
        { AUTH_REDIRECT_PROXY_URL: "https://proxy.example/auth" },
        { providers: [], redirectProxyUrl: "https://mine.example" },
      ).redirectProxyUrl,
    ).toBe("https://mine.example")
  })

  test("AUTH_<PROVIDER>_ID/SECRET/ISSUER fill what a provider object lacks", () => {
    const env = {
      AUTH_GITHUB_ID: "env-id",
      AUTH_GITHUB_SECRET: "env-secret",
      AUTH_GITHUB_ISSUER: "https://env-issuer.example",
    }
    const [filled] = setEnvDefaults(env, { providers: [github()] }).providers as any[]
    expect(filled).toMatchObject({
      clientId: "env-id",
      clientSecret: "env-secret",
      issuer: "https://env-issuer.example",
    })
    const [kept] = setEnvDefaults(env, { providers: [github({ clientId: "mine" })] })
      .providers as any[]
    expect(kept.clientId).toBe("mine")
    expect(kept.clientSecret).toBe("env-secret")
  })

  test("a provider factory given bare is called with the values from the environment (ids with dashes use underscores)", () => {
    const env = { AUTH_MY_IDP_ID: "kc-id", AUTH_MY_IDP_SECRET: "kc-secret" }
    const [made] = setEnvDefaults(env, { providers: [Keycloak as any] }).providers as any[]
    expect(made).toMatchObject({ id: "my-idp", clientId: "kc-id", clientSecret: "kc-secret" })
  })

  test("a built-in factory given bare gets the environment's values on the provider it returns, and signs in with them", async () => {
    const env = { AUTH_GITHUB_ID: "gh-env-id", AUTH_GITHUB_SECRET: "gh-env-secret" }
    const config = setEnvDefaults(env, { ...makeConfig().config, providers: [GitHub] })
    const [made] = config.providers as any[]
    expect(made).toMatchObject({
      id: "github",
      clientId: "gh-env-id",
      clientSecret: "gh-env-secret",
    })
    const response = await new Browser(config).startSignIn("github")
    const location = new URL(response.headers.get("location")!)
    expect(location.origin + location.pathname).toBe("https://github.com/login/oauth/authorize")
    expect(location.searchParams.get("client_id")).toBe("gh-env-id")
  })

  test("AUTH_URL with a path and a basePath too: one env-url-basepath-redundant warning, not repeated by Auth()", async () => {
    const log = recordingLogger()
    const env = { AUTH_URL: `${ORIGIN}/api/auth`, AUTH_SECRET: SECRET }
    const config = setEnvDefaults(env, {
      providers: [credentialsProvider()],
      basePath: "/custom",
      logger: log.logger,
    })
    expect(config.basePath).toBe("/custom")
    expect(log.warnings).toEqual(["env-url-basepath-redundant"])
    await Auth(get("/custom/session"), config)
    expect(log.warnings).toEqual(["env-url-basepath-redundant"])

    const quiet = recordingLogger()
    setEnvDefaults(env, { providers: [], basePath: "/custom", logger: quiet.logger }, true)
    setEnvDefaults(
      { AUTH_URL: ORIGIN },
      { providers: [], basePath: "/custom", logger: quiet.logger },
    )
    expect(quiet.warnings).toEqual([])
  })

  test("never replaces what the configuration sets", () => {
    const config: AuthConfig = {
      providers: [github({ clientId: "mine" })],
      secret: SECRET,
      trustHost: false,
      redirectProxyUrl: "https://mine.example",
    }
    setEnvDefaults(
      {
        AUTH_SECRET: OTHER_SECRET,
        AUTH_TRUST_HOST: "true",
        AUTH_GITHUB_ID: "x",
        AUTH_REDIRECT_PROXY_URL: "https://p.example",
      },
      config,
    )
    expect(config).toMatchObject({
      secret: SECRET,
      trustHost: false,
      redirectProxyUrl: "https://mine.example",
    })
    expect((config.providers[0] as any).clientId).toBe("mine")
  })

  test("calling it again with the same environment does nothing (per-request use is free)", async () => {
    let reads = 0
    const providers = [credentialsProvider()]
    const base = {
      logger: recordingLogger().logger,
      get providers() {
        reads++
        return providers
      },
    } as AuthConfig
    const env = { AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" }
    expect(setEnvDefaults(env, base)).toBe(base)
    const readsAfterDefaults = reads
    for (let i = 0; i < 5; i++) await Auth(get("/auth/session"), setEnvDefaults(env, base))
    // setEnvDefaults returns at once; resolution reads the configuration once.
    expect(reads - readsAfterDefaults).toBe(1)
  })

  test("a session cookie made with the environment's secret decodes through Auth()", async () => {
    const { config } = makeConfig({ secret: undefined })
    const withEnv = setEnvDefaults({ AUTH_SECRET: SECRET }, config)
    const token = await encode({
      token: { name: "Env", sub: "9" },
      secret: SECRET,
      salt: "tessera.session-token",
    })
    const response = await Auth(
      get("/auth/session", { headers: { cookie: `tessera.session-token=${token}` } }),
      withEnv,
    )
    expect(((await response.json()) as { user: { name: string } }).user.name).toBe("Env")
  })
})

describe("createActionURL", () => {
  test("warns env-url-basepath-mismatch when AUTH_URL's path is not basePath as written, as Auth.js does", () => {
    const log = recordingLogger()
    const url = (AUTH_URL: string, basePath: string) =>
      createActionURL(
        "signout",
        undefined,
        new Headers(),
        { AUTH_URL },
        { basePath, logger: log.logger },
      ).href
    expect(url("https://app.example/my-app/api/auth", "/my-app/api/auth")).toBe(
      "https://app.example/my-app/api/auth/signout",
    )
    expect(log.warnings).toEqual([])
    expect(url("https://app.example/my-app/api/auth/", "/my-app/api/auth")).toBe(
      "https://app.example/my-app/api/auth/signout",
    )
    expect(url("https://app.example/my-app", "/api/auth")).toBe(
      "https://app.example/api/auth/signout",
    )
    expect(log.warnings).toEqual(["env-url-basepath-mismatch", "env-url-basepath-mismatch"])
  })
})
