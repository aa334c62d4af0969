/**
 * The generic `oauth`/`oidc` provider options, each through `Auth()` against a
 * stand-in authorization server on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { setEnvDefaults } from "@tessera/core"
import { customFetch } from "../../../src/symbols.js"
import { MemoryAdapter } from "@tessera/testing"
import type { AuthConfig } from "../../../src/config/auth-config.js"
import { Browser, setCookies, recordingLogger, SECRET, setsSession } from "../../harness/index.js"
import { FakeIssuer, json, StandIn } from "../../harness/stand-in.js"

const ORIGIN = "http://localhost:3000"
let standIn: StandIn
/** OAuth 2 server, client_secret_basic; userinfo answers a GitHub-like profile. */
let basic: FakeIssuer
let post: FakeIssuer
let publicClient: FakeIssuer
/** An OIDC issuer reached as https://login.example through customFetch. */
let remote: FakeIssuer

const profileFor = (sub: string) => ({
  id: 4242,
  name: `User ${sub}`,
  email: `${sub}@example.test`,
  picture: `https://img.example/${sub}.png`,
})

beforeAll(async () => {
  standIn = await StandIn.start()
  const o = standIn.origin
  const oauth2 = (
    path: string,
    authMethod: "client_secret_basic" | "client_secret_post" | "none",
  ) =>
    FakeIssuer.create({
      standIn,
      issuer: `${o}/${path}`,
      authorizationEndpoint: `${o}/${path}/authorize`,
      tokenEndpoint: `${o}/${path}/token`,
      userinfoEndpoint: `${o}/${path}/me`,
      discovery: false,
      clientId: `${path}-client`,
      clientSecret: authMethod === "none" ? undefined : `${path}-secret`,
      authMethod,
      userinfo: (record) => json(profileFor(record.sub)),
    })
  ;[basic, post, publicClient] = await Promise.all([
    oauth2("basic", "client_secret_basic"),
    oauth2("post", "client_secret_post"),
    oauth2("public", "none"),
  ])
  remote = await FakeIssuer.create({
    standIn,
    issuer: "https://login.example",
    authorizationEndpoint: "https://login.example/authorize",
    tokenEndpoint: "https://login.example/token",
    userinfoEndpoint: "https://login.example/userinfo",
    jwksUri: "https://login.example/jwks",
    clientId: "remote-client",
    clientSecret: "remote-secret",
    idTokenClaims: (record) => ({
      email: `${record.sub}@login.example`,
      name: record.sub.toUpperCase(),
    }),
  })
})
afterAll(() => standIn?.stop())

function oauth2(issuer: FakeIssuer, extra: Record<string, unknown> = {}) {
  const base = issuer.issuer
  return {
    id: "acme",
    name: "Acme",
    type: "oauth" as const,
    authorization: `${base}/authorize`,
    token: `${base}/token`,
    userinfo: `${base}/me`,
    clientId: issuer.options.clientId,
    clientSecret: issuer.options.clientSecret,
    dangerouslyAllowInsecureHttpRequests: true,
    ...extra,
  }
}

function configOf(provider: Record<string, unknown>, extra: Partial<AuthConfig> = {}) {
  const recorder = recordingLogger()
  const seen: { account?: any; profile?: any } = {}
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    debug: true,
    logger: recorder.logger,
    providers: [provider as any],
    callbacks: {
      jwt({ token, account, profile, trigger }) {
        if (trigger === "signIn" || trigger === "signUp") Object.assign(seen, { account, profile })
        return token
      },
    },
    ...extra,
  }
  return { config, seen, ...recorder }
}

async function signIn(config: AuthConfig, issuer: FakeIssuer, sub = "ada", providerId = "acme") {
  const browser = new Browser(config)
  const start = await browser.startSignIn(providerId)
  const location = new URL(start.headers.get("location")!)
  const callback = issuer.authorize(location, sub)
  const done = await browser.request(callback.href)
  return { browser, start, location, done }
}

describe("OAuth 2 providers", () => {
  test("endpoints as URLs: PKCE and state by default, client_secret_basic, userinfo profile, Account fields", async () => {
    const { config, seen } = configOf(oauth2(basic))
    const { browser, location, done } = await signIn(config, basic)
    expect(location.searchParams.get("code_challenge_method")).toBe("S256")
    expect(location.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(location.searchParams.has("nonce")).toBe(false)
    expect(location.searchParams.has("scope")).toBe(false)
    expect(done.status).toBe(302)
    expect(setsSession(done)).toBe(true)
    expect((await browser.session()).user).toEqual({
      name: "User ada",
      email: "ada@example.test",
      image: "https://img.example/ada.png",
    })
    expect(seen.account).toEqual({
      provider: "acme",
      type: "oauth",
      providerAccountId: "4242",
      access_token: expect.stringMatching(/^at-/),
      token_type: "bearer",
      expires_at: expect.any(Number),
      // The callbacks get the whole token response, as in Auth.js.
      expires_in: 3600,
      scope: undefined,
    })
    expect(
      Math.abs(seen.account.expires_at - (Math.floor(Date.now() / 1000) + 3600)),
    ).toBeLessThanOrEqual(2)
    expect(seen.profile).toEqual(profileFor("ada"))
    // The token request carried the verifier and Basic credentials.
    const tokenRequest = standIn.requestsTo(`${basic.issuer}/token`).at(-1)!
    expect(tokenRequest.headers.get("authorization")).toMatch(/^Basic /)
    expect(new URLSearchParams(tokenRequest.body).get("code_verifier")).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    )
    expect(new URLSearchParams(tokenRequest.body).get("redirect_uri")).toBe(
      `${ORIGIN}/auth/callback/acme`,
    )
  })

  test("client_secret_post and none (public client)", async () => {
    const a = configOf(
      oauth2(post, { client: { token_endpoint_auth_method: "client_secret_post" } }),
    )
    expect(setsSession((await signIn(a.config, post)).done)).toBe(true)
    const b = configOf(oauth2(publicClient, { clientSecret: undefined }))
    expect(setsSession((await signIn(b.config, publicClient)).done)).toBe(true)
    const sent = new URLSearchParams(
      standIn.requestsTo(`${publicClient.issuer}/token`).at(-1)!.body,
    )
    expect(sent.get("client_id")).toBe("public-client")
    expect(sent.has("client_secret")).toBe(false)
  })

  test("endpoint objects: authorization, token and userinfo params", async () => {
    const provider = oauth2(basic, {
      authorization: {
        url: `${basic.issuer}/authorize?display=popup&scope=ignored`,
        params: { scope: "read:user", access_type: "offline" },
      },
      token: { url: `${basic.issuer}/token`, params: { audience: "api" } },
      userinfo: { url: `${basic.issuer}/me`, params: { fields: "id,name,email" } },
    })
    const { config } = configOf(provider)
    const { location, done } = await signIn(config, basic)
    expect(location.searchParams.get("display")).toBe("popup")
    expect(location.searchParams.get("scope")).toBe("read:user")
    expect(location.searchParams.get("access_type")).toBe("offline")
    expect(setsSession(done)).toBe(true)
    expect(
      new URLSearchParams(standIn.requestsTo(`${basic.issuer}/token`).at(-1)!.body).get("audience"),
    ).toBe("api")
    expect(standIn.requestsTo(`${basic.issuer}/me`).at(-1)!.url.searchParams.get("fields")).toBe(
      "id,name,email",
    )
  })

  test("checks: state only (no PKCE), and none", async () => {
    const state = configOf(oauth2(basic, { checks: ["state"] }))
    const withState = await signIn(state.config, basic)
    expect(withState.location.searchParams.has("code_challenge")).toBe(false)
    expect(withState.location.searchParams.get("state")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(setsSession(withState.done)).toBe(true)
    expect(
      new URLSearchParams(standIn.requestsTo(`${basic.issuer}/token`).at(-1)!.body).has(
        "code_verifier",
      ),
    ).toBe(false)

    // checks: ["none"] only with the explicit opt-in (refused otherwise: see test/security).
    const none = configOf(oauth2(basic, { checks: ["none"], dangerouslyAllowNoChecks: true }))
    const unchecked = await signIn(none.config, basic)
    expect(unchecked.location.searchParams.has("state")).toBe(false)
    expect(unchecked.location.searchParams.has("code_challenge")).toBe(false)
    expect(setCookies(unchecked.start).filter((c) => /pkce|state|nonce/.test(c.name))).toEqual([])
    expect(setsSession(unchecked.done)).toBe(true)
  })

  test("profile(profile, tokens) and account(tokens) callbacks; account() returning nothing stores no tokens", async () => {
    // account() decides what the Account stores; the callbacks get the whole token response
    // (Auth.js: `{ ...tokens, provider, type, providerAccountId }`).
    const stored = MemoryAdapter()
    const a = configOf(
      oauth2(basic, {
        profile: (profile: any, tokens: any) => ({
          id: `acme-${profile.id}`,
          name: profile.name.toUpperCase(),
          email: null,
          image: tokens.token_type,
        }),
        account: (tokens: any) => ({ access_token: tokens.access_token, custom: "kept" }),
      }),
      { adapter: stored, session: { strategy: "jwt" } },
    )
    const first = await signIn(a.config, basic)
    expect((await first.browser.session()).user).toEqual({
      name: "USER ADA",
      email: null,
      image: "bearer",
    })
    expect(a.seen.account).toEqual({
      provider: "acme",
      type: "oauth",
      providerAccountId: "acme-4242",
      access_token: expect.any(String),
      token_type: "bearer",
      expires_at: expect.any(Number),
      expires_in: 3600,
    })
    // Stored: what account() kept (no token_type, no expires_at), in the memory adapter's
    // columns (which have no place for `custom`).
    const [account] = [...stored.store.accounts.values()]
    expect(account).toEqual({
      provider: "acme",
      type: "oauth",
      providerAccountId: "acme-4242",
      access_token: expect.any(String),
      userId: expect.any(String),
    })

    const none = MemoryAdapter()
    const b = configOf(oauth2(basic, { account: () => undefined }), {
      adapter: none,
      session: { strategy: "jwt" },
    })
    await signIn(b.config, basic)
    expect([...none.store.accounts.values()]).toEqual([
      { provider: "acme", type: "oauth", providerAccountId: "4242", userId: expect.any(String) },
    ])
    expect(b.seen.account).toMatchObject({
      providerAccountId: "4242",
      access_token: expect.any(String),
    })
  })

  test("custom token and userinfo requests, and conform hooks for non-standard responses", async () => {
    const calls: any[] = []
    const provider = oauth2(basic, {
      token: {
        url: `${basic.issuer}/token`,
        // The provider answers without token_type and with a list for scope.
        conform: async (response: Response) => {
          const body = await response.json()
          return json({ ...body, token_type: "Bearer", scope: ["a", "b"].join(" ") })
        },
        async request(context: any) {
          calls.push(Object.keys(context).sort())
          const response = await context.fetch(`${basic.issuer}/token`, {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              authorization: `Basic ${btoa("basic-client:basic-secret")}`,
            },
            body: new URLSearchParams({
              grant_type: "authorization_code",
              code: context.params.code,
              redirect_uri: context.redirectUri,
              code_verifier: context.checks.code_verifier,
            }),
          })
          const { token_type: _dropped, ...tokens } = await response.json()
          return { tokens }
        },
      },
      userinfo: {
        url: `${basic.issuer}/me`,
        async request(context: any) {
          calls.push(Object.keys(context).sort())
          const response = await context.fetch(`${basic.issuer}/me`, {
            headers: { authorization: `Bearer ${context.tokens.access_token}` },
          })
          return { data: await response.json() }
        },
      },
      profile: (profile: any) => ({ id: profile.data.id, name: profile.data.name }),
    })
    const { config, seen } = configOf(provider)
    const { done, browser } = await signIn(config, basic)
    expect(setsSession(done)).toBe(true)
    expect(calls).toEqual([
      ["checks", "fetch", "params", "provider", "redirectUri"],
      ["claims", "fetch", "params", "provider", "tokens"],
    ])
    expect(seen.account).toMatchObject({
      token_type: "bearer",
      scope: "a b",
      providerAccountId: "4242",
    })
    expect((await browser.session()).user.name).toBe("User ada")
  })

  test("a profile() with no id keys the account by the userinfo id", async () => {
    const { config, seen } = configOf(oauth2(basic, { profile: () => ({ name: "nobody" }) }))
    const { done } = await signIn(config, basic)
    expect(setsSession(done)).toBe(true)
    expect(seen.account).toMatchObject({ providerAccountId: "4242" })
  })

  test("a profile with no id anywhere is refused (Configuration), and no session", async () => {
    const { config, errors } = configOf(
      oauth2(basic, {
        userinfo: { url: `${basic.issuer}/me`, request: () => ({ name: "nobody" }) },
        profile: () => ({ name: "nobody" }),
      }),
    )
    const { done } = await signIn(config, basic)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(setsSession(done)).toBe(false)
    expect(errors.at(-1)?.name).toBe("OAuthProfileParseError")
  })

  test("userinfo refusing the token ends the sign-in", async () => {
    const { config, errors } = configOf(
      oauth2(basic, {
        token: {
          url: `${basic.issuer}/token`,
          conform: async (r: Response) => json({ ...(await r.json()), access_token: "unknown" }),
        },
      }),
    )
    const { done } = await signIn(config, basic)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
    expect(setsSession(done)).toBe(false)
    expect(errors.at(-1)?.message).toContain("401")
  })

  test("a provider error on the callback is OAuthCallbackError, with the code logged", async () => {
    const { config, refusals } = configOf(oauth2(basic))
    const browser = new Browser(config)
    const start = await browser.startSignIn("acme")
    // The provider sends the state back with its error (RFC 6749 §4.1.2.1).
    const state = new URL(start.headers.get("location")!).searchParams.get("state")!
    const done = await browser.request(
      `/auth/callback/acme?error=access_denied&error_description=${encodeURIComponent("The user said no\n[forged log line]")}&state=${state}`,
    )
    expect(done.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=OAuthCallbackError&code=access_denied`,
    )
    expect(setsSession(done)).toBe(false)
    // The user's (or provider's) refusal is a client-side outcome: logged at debug level.
    const logged = refusals.at(-1) as any
    expect(logged.message).toContain("access_denied")
    expect(logged.cause.error_description).toBe("The user said no [forged log line]")
  })

  test("the provider needs a clientId: OAuthSignin on the sign-in page", async () => {
    const { config, errors } = configOf(oauth2(basic, { clientId: undefined }))
    const start = await new Browser(config).startSignIn("acme")
    expect(start.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthSignin`)
    expect(errors.at(-1)?.message).toContain("AUTH_ACME_ID")
  })
})

describe("OIDC discovery, customFetch and issuers", () => {
  test("customFetch routes discovery, token, JWKS; https issuer with no opt-in", async () => {
    const seen: string[] = []
    const provider = {
      id: "remote",
      name: "Remote",
      type: "oidc" as const,
      issuer: "https://login.example",
      clientId: "remote-client",
      clientSecret: "remote-secret",
      [customFetch]: (input: any, init: any) => {
        seen.push(new URL(String(input)).pathname)
        return standIn.fetch(input, init)
      },
    }
    const { config } = configOf(provider)
    const browser = new Browser(config)
    const start = await browser.startSignIn("remote")
    const location = new URL(start.headers.get("location")!)
    expect(location.origin + location.pathname).toBe("https://login.example/authorize")
    const done = await browser.request(remote.authorize(location, "zoe").href)
    expect(setsSession(done)).toBe(true)
    expect((await browser.session()).user).toEqual({
      name: "ZOE",
      email: "zoe@login.example",
      image: null,
    })
    expect(seen).toEqual(
      expect.arrayContaining(["/.well-known/openid-configuration", "/token", "/jwks"]),
    )
  })

  test("discovery is fetched once per configuration, whatever its sign-ins", async () => {
    const discovery = "https://login.example/.well-known/openid-configuration"
    const before = standIn.requestsTo(discovery).length
    const { config } = configOf({
      id: "remote",
      name: "Remote",
      type: "oidc",
      issuer: "https://login.example",
      clientId: "remote-client",
      clientSecret: "remote-secret",
      [customFetch]: standIn.fetch,
    })
    const browser = new Browser(config)
    for (let i = 0; i < 3; i++) {
      const start = await browser.startSignIn("remote")
      expect(
        setsSession(
          await browser.request(remote.authorize(start.headers.get("location")!, `u${i}`).href),
        ),
      ).toBe(true)
    }
    // The metadata is cached on the resolved configuration (issue 10), not in module scope: a
    // second configuration discovers for itself (flows/oauth/discovery.test.ts).
    expect(standIn.requestsTo(discovery).length - before).toBe(1)
  })

  test("an explicit wellKnown URL is the document fetched", async () => {
    standIn.on("GET", "https://login.example/custom/metadata.json", () =>
      json({
        issuer: "https://login.example",
        authorization_endpoint: "https://login.example/authorize",
        token_endpoint: "https://login.example/token",
        jwks_uri: "https://login.example/jwks",
      }),
    )
    const { config } = configOf({
      id: "remote",
      name: "Remote",
      type: "oidc",
      wellKnown: "https://login.example/custom/metadata.json",
      clientId: "remote-client",
      clientSecret: "remote-secret",
      [customFetch]: standIn.fetch,
    })
    const browser = new Browser(config)
    const start = await browser.startSignIn("remote")
    expect(
      setsSession(
        await browser.request(remote.authorize(start.headers.get("location")!, "wk").href),
      ),
    ).toBe(true)
    expect(standIn.requestsTo("https://login.example/custom/metadata.json")).toHaveLength(1)
    // A second sign-in of the same configuration reuses the document.
    await browser.startSignIn("remote")
    expect(standIn.requestsTo("https://login.example/custom/metadata.json")).toHaveLength(1)
    // A second configuration with the same wellKnown fetches it for itself.
    const again = configOf({
      id: "remote",
      name: "Remote",
      type: "oidc",
      wellKnown: "https://login.example/custom/metadata.json",
      clientId: "remote-client",
      clientSecret: "remote-secret",
      [customFetch]: standIn.fetch,
    })
    await new Browser(again.config).startSignIn("remote")
    expect(standIn.requestsTo("https://login.example/custom/metadata.json")).toHaveLength(2)
  })

  test("an authorization response naming another issuer (iss) is refused", async () => {
    const { config, errors } = configOf({
      id: "remote",
      name: "Remote",
      type: "oidc",
      issuer: "https://login.example",
      clientId: "remote-client",
      clientSecret: "remote-secret",
      [customFetch]: standIn.fetch,
    })
    const browser = new Browser(config)
    const start = await browser.startSignIn("remote")
    const callback = remote.authorize(start.headers.get("location")!, "x", {
      iss: "https://evil.example",
    })
    const done = await browser.request(callback.href)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`)
    expect(setsSession(done)).toBe(false)
    expect(errors.at(-1)?.message).toContain("iss")
  })
})

describe("insecure http is opt-in", () => {
  test("an http issuer or endpoint without dangerouslyAllowInsecureHttpRequests is a configuration error", async () => {
    for (const provider of [
      { id: "x", name: "X", type: "oidc", issuer: `${standIn.origin}/idp`, clientId: "c" },
      { ...oauth2(basic), dangerouslyAllowInsecureHttpRequests: undefined },
      {
        id: "x",
        name: "X",
        type: "oauth",
        authorization: "https://a.example/authorize",
        token: "http://a.example/token",
        clientId: "c",
      },
    ]) {
      const { config, errors } = configOf(provider)
      const response = await new Browser(config).request("/auth/providers")
      expect(response.status).toBe(500)
      expect(await response.json()).toEqual({ message: expect.stringContaining("configuration") })
      expect(errors.at(-1)?.name).toBe("InvalidEndpoints")
      expect(errors.at(-1)?.message).toContain("dangerouslyAllowInsecureHttpRequests")
    }
  })

  test("the opt-in is announced with a warning", async () => {
    const { config, warnings } = configOf(oauth2(basic))
    await new Browser(config).request("/auth/providers")
    expect(warnings).toContain("insecure-issuer")
  })

  test("http endpoints discovered from an https issuer are refused at use", async () => {
    standIn.on("GET", "https://mixed.example/.well-known/openid-configuration", () =>
      json({
        issuer: "https://mixed.example",
        authorization_endpoint: "http://mixed.example/authorize",
        token_endpoint: "https://mixed.example/token",
        jwks_uri: "https://mixed.example/jwks",
      }),
    )
    const { config, errors } = configOf({
      id: "mixed",
      name: "Mixed",
      type: "oidc",
      issuer: "https://mixed.example",
      clientId: "c",
      clientSecret: "s",
      [customFetch]: standIn.fetch,
    })
    const start = await new Browser(config).startSignIn("mixed")
    expect(start.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthSignin`)
    expect(errors.at(-1)?.name).toBe("OAuthSignInError")
  })
})

describe("environment defaults", () => {
  test("AUTH_<ID>_ID, _SECRET and _ISSUER fill a provider factory's options", async () => {
    const factory = (options: Record<string, unknown> = {}) => ({
      id: "remote-env",
      name: "Remote",
      type: "oidc" as const,
      [customFetch]: standIn.fetch,
      options,
    })
    const config = setEnvDefaults(
      {
        AUTH_SECRET: SECRET,
        AUTH_REMOTE_ENV_ID: "remote-client",
        AUTH_REMOTE_ENV_SECRET: "remote-secret",
        AUTH_REMOTE_ENV_ISSUER: "https://login.example",
      },
      { providers: [factory as any], trustHost: true, logger: recordingLogger().logger },
    )
    const browser = new Browser(config)
    const start = await browser.startSignIn("remote-env")
    const location = new URL(start.headers.get("location")!)
    expect(location.searchParams.get("client_id")).toBe("remote-client")
    expect(location.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/remote-env`)
  })
})

describe("redirect proxy", () => {
  const PREVIEW = "http://preview.localhost:3001"
  const STABLE = "http://localhost:3000"

  function proxied() {
    const provider = oauth2(basic, { redirectProxyUrl: `${STABLE}/auth` })
    const preview = configOf(provider).config
    // The proxy forwards only to hosts it allows: its own and the preview deployments'.
    const stable = {
      ...configOf({ ...provider }).config,
      allowedHosts: ["localhost:3000", "*.localhost:3001"],
    }
    return { preview, stable }
  }

  test("a preview deployment signs in through the stable deployment's callback", async () => {
    const { preview, stable } = proxied()
    const browser = new Browser(preview, PREVIEW)
    const start = await browser.startSignIn("acme")
    const location = new URL(start.headers.get("location")!)
    expect(location.searchParams.get("redirect_uri")).toBe(`${STABLE}/auth/callback/acme`)
    // state is forced, and carries the origin encrypted (a JWE, not readable).
    const state = location.searchParams.get("state")!
    expect(state.split(".")).toHaveLength(5)
    expect(state).not.toContain("preview")

    const atProxy = basic.authorize(location, "pat")
    expect(atProxy.origin).toBe(STABLE)
    const proxyBrowser = new Browser(stable, STABLE)
    const forwarded = await proxyBrowser.request(atProxy.href)
    expect(forwarded.status).toBe(302)
    const target = new URL(forwarded.headers.get("location")!)
    expect(target.origin + target.pathname).toBe(`${PREVIEW}/auth/callback/acme`)
    expect(target.searchParams.get("code")).toBe(atProxy.searchParams.get("code"))
    expect(setsSession(forwarded)).toBe(false)

    const done = await browser.request(target.href)
    expect(setsSession(done)).toBe(true)
    // The token request repeated the proxy's redirect_uri.
    expect(
      new URLSearchParams(standIn.requestsTo(`${basic.issuer}/token`).at(-1)!.body).get(
        "redirect_uri",
      ),
    ).toBe(`${STABLE}/auth/callback/acme`)
  })

  test("the proxy does not forward a state it did not encrypt", async () => {
    const { stable } = proxied()
    const { logger, refusals } = recordingLogger()
    const browser = new Browser({ ...stable, logger, debug: true }, STABLE)
    const response = await browser.request(
      `/auth/callback/acme?code=stolen&state=${encodeURIComponent("https://evil.example/auth/callback/acme")}`,
    )
    expect(response.headers.get("location")).toBe(`${STABLE}/auth/signin?error=OAuthCallbackError`)
    expect(refusals.at(-1)?.name).toBe("InvalidCheck")
  })

  test("sign-ins started on the stable deployment use its own callback", async () => {
    const { stable } = proxied()
    const browser = new Browser(stable, STABLE)
    const start = await browser.startSignIn("acme")
    const location = new URL(start.headers.get("location")!)
    expect(location.searchParams.get("redirect_uri")).toBe(`${STABLE}/auth/callback/acme`)
    expect(setsSession(await browser.request(basic.authorize(location, "st").href))).toBe(true)
  })
})

describe("account linking by e-mail", () => {
  /** A user who proved ada@example.test; the provider here vouches for the address it reports. */
  async function withExistingUser() {
    const adapter = MemoryAdapter()
    const existing = await adapter.createUser!({
      id: crypto.randomUUID(),
      email: "ada@example.test",
      emailVerified: new Date(),
      name: "Ada",
    })
    return { adapter, existing }
  }
  const vouching = { verifiedEmail: (profile: { email?: string }) => profile.email ?? null }

  test("refused by default: OAuthAccountNotLinked", async () => {
    const { adapter } = await withExistingUser()
    const { config } = configOf(oauth2(basic, vouching), { adapter })
    const { done } = await signIn(config, basic, "ada")
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`)
    expect(setsSession(done)).toBe(false)
    expect(adapter.store.accounts.size).toBe(0)
  })

  test("allowDangerousEmailAccountLinking links to the existing user", async () => {
    const { adapter, existing } = await withExistingUser()
    const { config } = configOf(
      oauth2(basic, { ...vouching, allowDangerousEmailAccountLinking: true }),
      { adapter },
    )
    const { done } = await signIn(config, basic, "ada")
    expect(setsSession(done)).toBe(true)
    const [account] = [...adapter.store.accounts.values()]
    expect(account).toMatchObject({
      userId: existing.id,
      provider: "acme",
      providerAccountId: "4242",
    })
  })

  test("even with allowDangerousEmailAccountLinking, an address the provider does not vouch for never links", async () => {
    const { adapter } = await withExistingUser()
    const { config } = configOf(oauth2(basic, { allowDangerousEmailAccountLinking: true }), {
      adapter,
    })
    const { done } = await signIn(config, basic, "ada")
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`)
    expect(setsSession(done)).toBe(false)
    expect(adapter.store.accounts.size).toBe(0)
  })
})

test("the button style is used on the built-in sign-in page", async () => {
  const { config } = configOf(
    oauth2(basic, { style: { brandColor: "#24292f", logo: "https://img.example/acme.svg" } }),
  )
  const page = await (await new Browser(config).request("/auth/signin")).text()
  expect(page).toContain("#24292f")
  expect(page).toContain("https://img.example/acme.svg")
  expect(page).toContain("Sign in with Acme")
})

test("an OAuth 2 provider with no profile source is refused at configuration, saying what to set", async () => {
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    providers: [
      {
        id: "bare",
        name: "Bare",
        type: "oauth",
        authorization: "https://bare.example/authorize",
        token: "https://bare.example/token",
        clientId: "id",
        clientSecret: "secret",
      },
    ],
  }
  const response = await new Browser(config).request("/auth/providers")
  expect(response.status).toBe(500)
  expect(log.errors.map((e) => e.message)).toEqual([
    expect.stringMatching(/"bare" has no way to read the user's profile: set `userinfo`/),
  ])
  // Naming the source is enough: a userinfo URL, or an ID Token in the token response.
  for (const fix of [{ userinfo: "https://bare.example/me" }, { idToken: true }]) {
    const fixed = { ...config, providers: [{ ...config.providers[0], ...fix }] } as AuthConfig
    expect((await new Browser(fixed).request("/auth/providers")).status).toBe(200)
  }
})
