/**
 * Issue 3 as an outside tester reads it (the issue text, the spec's provider tables, Account,
 * checks and Versioning, docs/providers.md; not the sources): OAuth 2.0 / OpenID Connect
 * sign-in through `Auth()` against a real oidc-provider on 127.0.0.1 (`@tessera/testing`),
 * its failures, and the VK provider against a loopback stand-in for VK's hosts.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, customFetch, setEnvDefaults, type AuthConfig } from "@tessera/core"
import VK, { VK_API_VERSION, type VkProfile } from "@tessera/core/providers/vk"
import {
  completeOidcLogin,
  FakeIssuer,
  json,
  localOidcProvider,
  readForm,
  startOidcProvider,
  StandIn,
  type OidcProviderServer,
} from "@tessera/testing"
import {
  Browser,
  ORIGIN,
  SECRET,
  get,
  setCookie,
  setCookies,
  setsSession,
} from "../harness/index.js"
import { outsideSetup } from "./setup.js"

const { log, sqlite } = outsideSetup()

let idp: OidcProviderServer
let postIdp: OidcProviderServer
beforeAll(async () => {
  idp = await startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`] })
  postIdp = await startOidcProvider({
    redirectUris: [`${ORIGIN}/auth/callback/local`],
    tokenEndpointAuthMethod: "client_secret_post",
  })
})
afterAll(async () => {
  await idp?.stop()
  await postIdp?.stop()
})

function oidcConfig(provider: Record<string, unknown> = {}, more: Partial<AuthConfig> = {}) {
  return {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    providers: [{ ...localOidcProvider(idp), ...provider }],
    ...more,
  } as AuthConfig
}

/** A configuration with one built-in provider whose HTTP calls go to `standIn`. */
function builtInConfig(provider: object, standIn: StandIn): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    providers: [{ ...provider, [customFetch]: standIn.fetch }],
  } as AuthConfig
}

/** Starts a sign-in and logs in at the IdP; returns the browser and the callback it was sent to. */
async function toCallback(config: AuthConfig, accountId = "ada", cancel = false) {
  const browser = new Browser(config)
  const start = await browser.startSignIn("local", { callbackUrl: "/after" })
  expect(start.status).toBe(302)
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId, cancel })
  return { browser, start, back }
}

function callbackPath(back: { url: URL }) {
  return back.url.pathname + back.url.search
}

function errorOf(response: Response) {
  const location = new URL(response.headers.get("location")!)
  return { path: location.pathname, error: location.searchParams.get("error"), location }
}

describe("OIDC sign-in against a real OpenID provider", () => {
  test("POST signin/<id> redirects to the authorization endpoint with PKCE and nonce", async () => {
    const browser = new Browser(oidcConfig())
    const response = await browser.startSignIn("local")
    expect(response.status).toBe(302)
    const url = new URL(response.headers.get("location")!)
    expect(url.origin).toBe(idp.issuer)
    expect(url.searchParams.get("response_type")).toBe("code")
    expect(url.searchParams.get("client_id")).toBe(idp.clientId)
    expect(url.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/local`)
    expect(url.searchParams.get("scope")?.split(" ")).toContain("openid")
    expect(url.searchParams.get("code_challenge_method")).toBe("S256")
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    expect(url.searchParams.get("nonce")).toBeTruthy()
    for (const name of ["tessera.pkce.code_verifier", "tessera.nonce"]) {
      const cookie = setCookie(response, name)!
      expect(cookie, name).toBeDefined()
      expect(cookie.attributes.httponly).toBe(true)
      expect(String(cookie.attributes.samesite).toLowerCase()).toBe("lax")
      const maxAge = Number(cookie.attributes["max-age"])
      const expires = cookie.attributes.expires
        ? (Date.parse(String(cookie.attributes.expires)) - Date.now()) / 1000
        : maxAge
      expect(Math.round(Number.isNaN(maxAge) ? expires : maxAge)).toBeGreaterThan(890)
      expect(Math.round(Number.isNaN(maxAge) ? expires : maxAge)).toBeLessThanOrEqual(900)
      // Encrypted: not the verifier itself, nor the nonce in the URL.
      expect(cookie.value).not.toBe(url.searchParams.get("nonce"))
    }
  })

  test("the whole flow: callback, session, the check cookies cleared", async () => {
    const { browser, back } = await toCallback(oidcConfig())
    expect(back.method).toBe("GET")
    const done = await browser.request(callbackPath(back))
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/after`)
    expect(setsSession(done)).toBe(true)
    for (const name of ["tessera.pkce.code_verifier", "tessera.nonce"]) {
      const cookie = setCookie(done, name)
      expect(cookie?.value === "" || cookie?.attributes["max-age"] === "0", name).toBe(true)
    }
    const session = await browser.session()
    expect(session.user).toMatchObject({ name: "Ada", email: "ada@example.test" })
  })

  test("signIn, jwt and session callbacks and the signIn event see the account and profile", async () => {
    const order: string[] = []
    const seen: Record<string, any> = {}
    const config = oidcConfig(
      {},
      {
        callbacks: {
          signIn: (params) => {
            order.push("signIn")
            seen.signIn = params
            return true
          },
          jwt: (params) => {
            order.push(`jwt:${params.trigger ?? "-"}`)
            if (params.account) seen.jwt = params
            return params.token
          },
          session: (params) => {
            order.push("session")
            return params.session
          },
        },
        events: {
          signIn: (message) => {
            order.push("event:signIn")
            seen.event = message
          },
        },
      },
    )
    const { browser, back } = await toCallback(config)
    const before = Math.floor(Date.now() / 1000)
    await browser.request(callbackPath(back))
    await browser.session()
    expect(order.slice(0, 3)).toEqual(["signIn", "jwt:signIn", "event:signIn"])
    expect(order.at(-1)).toBe("session")
    expect(seen.signIn).toMatchObject({
      user: { email: "ada@example.test" },
      account: { provider: "local", type: "oidc" },
      profile: { sub: "ada", email: "ada@example.test" },
    })
    const account = seen.jwt.account
    expect(account).toMatchObject({
      provider: "local",
      type: "oidc",
      providerAccountId: "ada",
      access_token: expect.any(String),
      id_token: expect.any(String),
      token_type: "bearer",
    })
    expect(Number.isInteger(account.expires_at)).toBe(true)
    expect(account.expires_at).toBeGreaterThanOrEqual(before + 3600 - 5)
    expect(account.expires_at).toBeLessThanOrEqual(before + 3600 + 60)
    expect(seen.jwt.profile).toMatchObject({ sub: "ada" })
    expect(seen.event).toMatchObject({
      user: { email: "ada@example.test" },
      account: { provider: "local" },
    })
  })

  test("profile() shapes the user; account() shapes the stored account, jwt gets the tokens", async () => {
    const adapter = await sqlite()
    let jwtAccount: any
    const config = oidcConfig(
      {
        profile: (profile: any) => ({
          id: profile.sub,
          name: `Dr ${profile.name}`,
          email: profile.email,
        }),
        account: (tokens: any) => ({ access_token: tokens.access_token, token_type: "bearer" }),
      },
      {
        adapter,
        session: { strategy: "jwt" },
        callbacks: { jwt: (p) => ((jwtAccount ??= p.account), p.token) },
      },
    )
    const { browser, back } = await toCallback(config)
    await browser.request(callbackPath(back))
    expect((await browser.session()).user.name).toBe("Dr Ada")
    const user = await adapter.getUserByAccount!({ provider: "local", providerAccountId: "ada" })
    expect(user?.name).toBe("Dr Ada")
    const stored = await adapter.db
      .selectFrom("accounts")
      .selectAll()
      .where("user_id", "=", user!.id)
      .executeTakeFirstOrThrow()
    expect(stored.access_token).toEqual(expect.any(String))
    expect(stored.id_token ?? null).toBeNull()
    // As in Auth.js, the jwt callback sees the whole token set, account() shapes what is stored.
    expect(jwtAccount).toMatchObject({ id_token: expect.any(String), provider: "local" })
  })

  test("client_secret_post as the client's token_endpoint_auth_method", async () => {
    const config = oidcConfig({
      ...localOidcProvider(postIdp),
      client: { token_endpoint_auth_method: "client_secret_post" },
    })
    const { browser, back } = await toCallback(config)
    const done = await browser.request(callbackPath(back))
    expect(setsSession(done)).toBe(true)
  })

  test("response_mode=form_post: the provider POSTs the callback", async () => {
    const config = oidcConfig({ authorization: { params: { response_mode: "form_post" } } })
    const { browser, back, start } = await toCallback(config)
    // A cross-site POST carries no Lax cookie: the check cookies are SameSite=None; Secure.
    const pkce = setCookie(start, "tessera.pkce.code_verifier")!
    expect(String(pkce.attributes.samesite).toLowerCase()).toBe("none")
    expect(pkce.attributes.secure).toBe(true)
    expect(back.method).toBe("POST")
    const done = await browser.request(back.url.pathname, {
      body: back.body!,
      headers: { origin: idp.issuer, "sec-fetch-site": "cross-site" },
    })
    expect(done.status).toBe(302)
    expect(setsSession(done)).toBe(true)
  })

  test("checks: state is sent and kept in its own cookie when asked for", async () => {
    const browser = new Browser(oidcConfig({ checks: ["pkce", "state", "nonce"] }))
    const response = await browser.startSignIn("local")
    const url = new URL(response.headers.get("location")!)
    expect(url.searchParams.get("state")).toBeTruthy()
    expect(setCookie(response, "tessera.state")?.attributes.httponly).toBe(true)
  })
})

describe("fail-closed callbacks, each without a session", () => {
  async function refused(response: Response) {
    expect(response.status).toBe(302)
    expect(setsSession(response)).toBe(false)
    const { path, error } = errorOf(response)
    expect(path).toBe("/auth/signin")
    expect(error).toBe("OAuthCallbackError")
  }

  test("no PKCE verifier cookie", async () => {
    const { browser, back } = await toCallback(oidcConfig())
    browser.jar.delete("tessera.pkce.code_verifier")
    await refused(await browser.request(callbackPath(back)))
  })

  test("another flow's PKCE verifier", async () => {
    const config = oidcConfig()
    const first = await toCallback(config)
    const second = await toCallback(config)
    first.browser.jar.set(
      "tessera.pkce.code_verifier",
      second.browser.jar.get("tessera.pkce.code_verifier")!,
    )
    await refused(await first.browser.request(callbackPath(first.back)))
  })

  test("a wrong or missing state", async () => {
    const config = oidcConfig({ checks: ["pkce", "state", "nonce"] })
    const wrong = await toCallback(config)
    const url = new URL(wrong.back.url)
    url.searchParams.set("state", "forged")
    await refused(await wrong.browser.request(url.pathname + url.search))
    const missing = await toCallback(config)
    const url2 = new URL(missing.back.url)
    url2.searchParams.delete("state")
    await refused(await missing.browser.request(url2.pathname + url2.search))
  })

  test("a nonce cookie from another flow", async () => {
    const config = oidcConfig()
    const first = await toCallback(config)
    const second = await toCallback(config)
    first.browser.jar.set("tessera.nonce", second.browser.jar.get("tessera.nonce")!)
    await refused(await first.browser.request(callbackPath(first.back)))
  })

  test("a replayed authorization code", async () => {
    const config = oidcConfig()
    const { browser, back } = await toCallback(config)
    const jar = new Map(browser.jar)
    expect(setsSession(await browser.request(callbackPath(back)))).toBe(true)
    const replay = new Browser(config)
    for (const [k, v] of jar) replay.jar.set(k, v)
    await refused(await replay.request(callbackPath(back)))
  })

  test("the user cancels: error=OAuthCallbackError&code=access_denied", async () => {
    const { browser, back } = await toCallback(oidcConfig(), "ada", true)
    const response = await browser.request(callbackPath(back))
    await refused(response)
    expect(errorOf(response).location.searchParams.get("code")).toBe("access_denied")
  })

  test("the log names the failure, never the code", async () => {
    const logged = log.logged.length
    const { browser, back } = await toCallback(oidcConfig())
    browser.jar.delete("tessera.pkce.code_verifier")
    await browser.request(callbackPath(back))
    const code = back.url.searchParams.get("code")!
    const text = JSON.stringify(log.logged.slice(logged)) + log.debug.join(" ")
    expect(text).not.toContain(code)
  })

  test("the signIn callback refusing is AccessDenied on the error page", async () => {
    const config = oidcConfig({}, { callbacks: { signIn: () => false } })
    const { browser, back } = await toCallback(config)
    const response = await browser.request(callbackPath(back))
    expect(setsSession(response)).toBe(false)
    expect(errorOf(response)).toMatchObject({ path: "/auth/error", error: "AccessDenied" })
  })
})

describe("configuration of OAuth providers", () => {
  test("an http: issuer without the opt-in is refused", async () => {
    const { dangerouslyAllowInsecureHttpRequests: _, ...insecure } = localOidcProvider(idp)
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      providers: [insecure as never],
    }
    const browser = new Browser(config)
    const response = await browser.fetch("/auth/providers")
    expect(response.status).toBe(500)
    expect(log.errors.splice(0).length).toBeGreaterThan(0)
  })

  test("setEnvDefaults fills clientId, clientSecret and issuer from AUTH_<ID>_*", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      providers: [
        {
          id: "local",
          name: "Local IdP",
          type: "oidc",
          dangerouslyAllowInsecureHttpRequests: true,
        } as never,
      ],
    }
    setEnvDefaults(
      {
        AUTH_LOCAL_ID: idp.clientId,
        AUTH_LOCAL_SECRET: idp.clientSecret,
        AUTH_LOCAL_ISSUER: idp.issuer,
      },
      config,
    )
    const { browser, back } = await toCallback(config)
    expect(setsSession(await browser.request(callbackPath(back)))).toBe(true)
  })

  test("GET providers lists an OAuth provider with its sign-in and callback URLs", async () => {
    const providers = (await (await Auth(get("/auth/providers"), oidcConfig())).json()) as any
    expect(providers.local).toEqual({
      id: "local",
      name: "Local IdP",
      type: "oidc",
      signinUrl: `${ORIGIN}/auth/signin/local`,
      callbackUrl: `${ORIGIN}/auth/callback/local`,
    })
  })
})

describe("VK", () => {
  let standIn: StandIn
  beforeAll(async () => {
    standIn = await StandIn.start()
  })
  afterAll(() => standIn?.stop())

  const ivan: VkProfile = {
    id: 42,
    first_name: "Ivan",
    last_name: "Petrov",
    can_access_closed: true,
    is_closed: false,
    photo_100: "https://sun.userapi.com/ivan_100.jpg",
  }

  test("VK(): oauth, API version 5.126 on every endpoint, fields=photo_100 on users.get", () => {
    expect(VK_API_VERSION).toBe("5.126")
    const vk = VK({ clientId: "app", clientSecret: "s" }) as any
    expect(vk).toMatchObject({ id: "vk", name: "VK", type: "oauth" })
    // As Auth.js's factories do, the caller's options travel in `options` and win over the defaults.
    expect(vk.options).toMatchObject({ clientId: "app", clientSecret: "s" })
    const urlOf = (e: any) => new URL(typeof e === "string" ? e : e.url)
    for (const endpoint of [vk.authorization, vk.token, vk.userinfo]) {
      expect(urlOf(endpoint).searchParams.get("v")).toBe("5.126")
    }
    expect(urlOf(vk.userinfo).searchParams.get("fields")).toContain("photo_100")
  })

  function vkConfig(options: Record<string, unknown> = {}) {
    return builtInConfig(VK({ clientId: "app-1", clientSecret: "vk-secret", ...options }), standIn)
  }

  test("sign-in: VK's token response and users.get become the user", async () => {
    standIn
      .on("POST", "https://oauth.vk.com/access_token", () =>
        json({ access_token: "vk-at", expires_in: 86400, user_id: 42, email: "ivan@example.ru" }),
      )
      .on("GET", "https://oauth.vk.com/access_token", () =>
        json({ access_token: "vk-at", expires_in: 86400, user_id: 42, email: "ivan@example.ru" }),
      )
      .on("POST", "https://api.vk.com/method/users.get", () => json({ response: [ivan] }))
      .on("GET", "https://api.vk.com/method/users.get", () => json({ response: [ivan] }))
    let account: any
    const config = vkConfig()
    config.callbacks = { jwt: (p) => ((account ??= p.account), p.token) }
    const browser = new Browser(config)
    const start = await browser.startSignIn("vk")
    expect(start.status).toBe(302)
    const authorize = new URL(start.headers.get("location")!)
    expect(authorize.origin + authorize.pathname).toBe("https://oauth.vk.com/authorize")
    expect(authorize.searchParams.get("v")).toBe("5.126")
    expect(authorize.searchParams.get("client_id")).toBe("app-1")
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/auth/callback/vk`)
    const state = authorize.searchParams.get("state")
    expect(state).toBeTruthy()

    const done = await browser.request(`/auth/callback/vk?code=vk-code&state=${state}`)
    expect(done.status).toBe(302)
    expect(setsSession(done)).toBe(true)
    const session = await browser.session()
    expect(session.user).toEqual({
      name: "Ivan Petrov",
      email: "ivan@example.ru",
      image: "https://sun.userapi.com/ivan_100.jpg",
    })
    expect(account).toMatchObject({ provider: "vk", providerAccountId: "42", token_type: "bearer" })
    const tokenCall = standIn.requestsTo("https://oauth.vk.com/access_token").at(-1)!
    expect(tokenCall.url.searchParams.get("v") ?? (await readForm(tokenCall)).get("v")).toBe(
      "5.126",
    )
    const usersGet = standIn.requestsTo("https://api.vk.com/method/users.get").at(-1)!
    expect(usersGet.url.searchParams.get("v")).toBe("5.126")
    expect(usersGet.url.href).not.toContain("vk-at")
  })

  test("the spec's options override the version", async () => {
    const v = "5.199"
    const browser = new Browser(
      vkConfig({
        accessTokenUrl: `https://oauth.vk.com/access_token?v=${v}`,
        requestTokenUrl: `https://oauth.vk.com/access_token?v=${v}`,
        authorizationUrl: `https://oauth.vk.com/authorize?response_type=code&v=${v}`,
        profileUrl: `https://api.vk.com/method/users.get?fields=photo_100&v=${v}`,
      }),
    )
    const start = await browser.startSignIn("vk")
    const authorize = new URL(start.headers.get("location")!)
    expect(authorize.searchParams.getAll("v")).toEqual([v])
    const state = authorize.searchParams.get("state")
    await browser.request(`/auth/callback/vk?code=c2&state=${state}`)
    const usersGet = standIn.requestsTo("https://api.vk.com/method/users.get").at(-1)!
    expect(usersGet.url.searchParams.getAll("v")).toEqual([v])
  })

  test("a users.get error answered with 200 signs nobody in", async () => {
    const errorStandIn = await StandIn.start()
    try {
      errorStandIn
        .on("POST", "https://oauth.vk.com/access_token", () =>
          json({ access_token: "vk-at", expires_in: 86400, user_id: 42 }),
        )
        .on("GET", "https://oauth.vk.com/access_token", () =>
          json({ access_token: "vk-at", expires_in: 86400, user_id: 42 }),
        )
        .on("POST", "https://api.vk.com/method/users.get", () =>
          json({ error: { error_code: 5, error_msg: "User authorization failed" } }),
        )
        .on("GET", "https://api.vk.com/method/users.get", () =>
          json({ error: { error_code: 5, error_msg: "User authorization failed" } }),
        )
      const config = builtInConfig(VK({ clientId: "app-1", clientSecret: "s" }), errorStandIn)
      const browser = new Browser(config)
      const start = await browser.startSignIn("vk")
      const state = new URL(start.headers.get("location")!).searchParams.get("state")
      const done = await browser.request(`/auth/callback/vk?code=c&state=${state}`)
      expect(done.status).toBe(302)
      expect(errorOf(done)).toMatchObject({ path: "/auth/signin", error: "OAuthCallbackError" })
      expect(setsSession(done)).toBe(false)
      expect(await browser.session()).toBeNull()
      // VK's fault, not the visitor's: logged as an error, without the access token.
      const logged = log.errors.splice(0)
      expect(logged.length).toBeGreaterThan(0)
      expect(JSON.stringify(logged.map((e) => e.message))).not.toContain("vk-at")
    } finally {
      await errorStandIn.stop()
    }
  })

  test("a forged state on VK's callback signs nobody in", async () => {
    const browser = new Browser(vkConfig())
    await browser.startSignIn("vk")
    const done = await browser.request(`/auth/callback/vk?code=c3&state=forged`)
    expect(setsSession(done)).toBe(false)
    expect(errorOf(done).error).toBe("OAuthCallbackError")
    expect(setCookies(done).some((c) => c.name === "tessera.state")).toBe(true)
  })
})

describe("more of the provider options", () => {
  test("on https the check cookies are __Host- and Secure (docs/sessions.md)", async () => {
    const browser = new Browser(oidcConfig(), "https://app.example")
    const response = await browser.startSignIn("local")
    const names = setCookies(response).map((c) => c.name)
    const pkce = setCookies(response).find((c) => c.name.endsWith("tessera.pkce.code_verifier"))!
    expect(pkce.name).toBe("__Host-tessera.pkce.code_verifier")
    expect(pkce.attributes.secure).toBe(true)
    expect(names).toContain("__Host-tessera.nonce")
    expect(pkce.attributes.path).toBe("/")
    expect(pkce.attributes.domain).toBeUndefined()
  })

  test("redirectProxyUrl forces state", async () => {
    const browser = new Browser(
      oidcConfig({ redirectProxyUrl: `${ORIGIN}/auth`, checks: ["pkce"] }),
    )
    const response = await browser.startSignIn("local")
    expect(new URL(response.headers.get("location")!).searchParams.get("state")).toBeTruthy()
  })

  test("userinfo.request replaces the userinfo call and receives the tokens", async () => {
    let received: any
    const config = oidcConfig({
      idToken: false,
      userinfo: {
        request: (ctx: any) => {
          received = ctx
          return { sub: "ada", name: "From Request", email: "ada@example.test" }
        },
      },
    })
    const { browser, back } = await toCallback(config)
    expect(setsSession(await browser.request(callbackPath(back)))).toBe(true)
    expect(received.tokens).toMatchObject({ access_token: expect.any(String) })
    expect((await browser.session()).user.name).toBe("From Request")
  })

  test("an explicit wellKnown is the discovery document fetched", async () => {
    const { issuer: _, ...rest } = localOidcProvider(idp)
    const config = oidcConfig({
      ...rest,
      issuer: undefined,
      wellKnown: `${idp.issuer}/.well-known/openid-configuration`,
    })
    const { browser, back } = await toCallback(config)
    expect(setsSession(await browser.request(callbackPath(back)))).toBe(true)
  })
})

describe("a built-in provider's quirk: GitHub", () => {
  test("the primary verified address from /user/emails when /user hides it", async () => {
    const { default: GitHub } = await import("@tessera/core/providers/github")
    const standIn = await StandIn.start()
    try {
      standIn
        .on("POST", "https://github.com/login/oauth/access_token", () =>
          json({ access_token: "gh-at", token_type: "bearer", scope: "read:user,user:email" }),
        )
        .on("GET", "https://api.github.com/user", () =>
          json({ id: 7, login: "ada", name: "Ada", email: null, avatar_url: "https://a/x.png" }),
        )
        .on("GET", "https://api.github.com/user/emails", () =>
          json([
            { email: "old@example.com", primary: false, verified: true },
            { email: "ada@example.com", primary: true, verified: true },
          ]),
        )
      const config = builtInConfig(GitHub({ clientId: "gh", clientSecret: "s" }), standIn)
      const browser = new Browser(config)
      const start = await browser.startSignIn("github")
      const authorize = new URL(start.headers.get("location")!)
      expect(authorize.origin).toBe("https://github.com")
      const state = authorize.searchParams.get("state")
      const query = new URLSearchParams({ code: "c" })
      if (state) query.set("state", state)
      const done = await browser.request(`/auth/callback/github?${query}`)
      expect(setsSession(done)).toBe(true)
      expect((await browser.session()).user).toMatchObject({
        name: "Ada",
        email: "ada@example.com",
        image: "https://a/x.png",
      })
    } finally {
      await standIn.stop()
    }
  })
})

describe("ID Tokens that must be refused (an issuer whose tokens go wrong on purpose)", () => {
  let standIn: StandIn
  beforeAll(async () => {
    standIn = await StandIn.start()
  })
  afterAll(() => standIn?.stop())

  type Bad = (issuer: FakeIssuer, claims: Record<string, unknown>) => Promise<string>
  const cases: [string, Bad][] = [
    ["another audience", (i, c) => i.idToken({ ...c, aud: "someone-else" })],
    ["another issuer", (i, c) => i.idToken({ ...c, iss: "https://evil.example" })],
    ["expired", (i, c) => i.idToken({ ...c, iat: 1_000_000, exp: 1_000_300 })],
    ["a wrong nonce", (i, c) => i.idToken({ ...c, nonce: "not-the-one-sent" })],
    ["signed by another key", (i, c) => i.idToken(c, { key: i.strangerKey })],
    [
      "alg none",
      async (_, c) =>
        `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify(c)).toString("base64url")}.`,
    ],
    [
      "a tampered payload",
      async (i, c) => {
        const [h, , s] = (await i.idToken(c)).split(".")
        const p = Buffer.from(JSON.stringify({ ...c, sub: "admin" })).toString("base64url")
        return `${h}.${p}.${s}`
      },
    ],
  ]

  test.each(cases)("%s: OAuthCallbackError and no session", async (_, bad) => {
    const issuer: FakeIssuer = await FakeIssuer.create({
      standIn,
      issuer: `${standIn.origin}/idp-${crypto.randomUUID()}`,
      authorizationEndpoint: `${standIn.origin}/authorize`,
      tokenEndpoint: `${standIn.origin}/token`,
      jwksUri: `${standIn.origin}/jwks`,
      clientId: "client-1",
      clientSecret: "client-1-secret",
      tokenResponse: async (record, self) => ({
        access_token: "at",
        token_type: "Bearer",
        expires_in: 3600,
        id_token: await bad(self, self.defaultIdTokenClaims(record)),
      }),
    })
    const config = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      providers: [
        {
          id: "fake",
          name: "Fake",
          type: "oidc",
          issuer: issuer.options.issuer,
          clientId: "client-1",
          clientSecret: "client-1-secret",
          dangerouslyAllowInsecureHttpRequests: true,
          [customFetch]: standIn.fetch,
        },
      ],
    } as AuthConfig
    const browser = new Browser(config)
    const start = await browser.startSignIn("fake")
    const back = issuer.authorize(start.headers.get("location")!, "ada")
    const done = await browser.request(back.pathname + back.search)
    expect(setsSession(done)).toBe(false)
    expect(errorOf(done)).toMatchObject({ path: "/auth/signin", error: "OAuthCallbackError" })
    expect(await browser.session()).toBeNull()
    // The provider answered something it should not: a fault on the provider's side, logged
    // at error level (a nonce mismatch is a refused check, at debug), never with the token.
    const logged = log.errors.splice(0)
    expect(logged.every((e) => !JSON.stringify(e.message).includes("eyJ"))).toBe(true)
  })
})

describe("starting a sign-in", () => {
  test("POST signin/<id> without a CSRF token never reaches the provider", async () => {
    const browser = new Browser(oidcConfig())
    const response = await browser.request("/auth/signin/local", { body: { csrfToken: "nope" } })
    expect(response.status).toBe(302)
    expect(errorOf(response)).toMatchObject({ path: "/auth/signin", error: "Signin" })
    expect(setCookies(response).some((c) => c.name.includes("pkce"))).toBe(false)
  })

  test("an unknown provider: 404 at signin and callback", async () => {
    const browser = new Browser(oidcConfig())
    const csrfToken = await browser.csrfToken()
    expect((await browser.request("/auth/signin/nope", { body: { csrfToken } })).status).toBe(404)
    expect((await browser.request("/auth/callback/nope?code=x")).status).toBe(404)
  })

  test("a provider whose discovery cannot be reached: error=OAuthSignin", async () => {
    const config = oidcConfig({ id: "down", issuer: "http://127.0.0.1:9/nowhere" })
    const browser = new Browser(config)
    const response = await browser.startSignIn("down")
    expect(response.status).toBe(302)
    expect(errorOf(response)).toMatchObject({ path: "/auth/signin", error: "OAuthSignin" })
    log.errors.splice(0)
  })

  test("the callbackUrl of the sign-in is where the callback lands", async () => {
    const { browser, back } = await toCallback(oidcConfig())
    const done = await browser.request(callbackPath(back))
    expect(done.headers.get("location")).toBe(`${ORIGIN}/after`)
  })

  test("first sign-in with an adapter: jwt gets trigger signUp and isNewUser; then signIn", async () => {
    const adapter = await sqlite()
    const triggers: [string | undefined, boolean | undefined][] = []
    const config = oidcConfig(
      {},
      {
        adapter,
        session: { strategy: "jwt" },
        callbacks: {
          jwt: (p) => {
            if (p.account) triggers.push([p.trigger, p.isNewUser])
            return p.token
          },
        },
      },
    )
    const first = await toCallback(config, "newbie")
    await first.browser.request(callbackPath(first.back))
    const second = await toCallback(config, "newbie")
    await second.browser.request(callbackPath(second.back))
    expect(triggers).toEqual([
      ["signUp", true],
      ["signIn", false],
    ])
  })
})

describe("the built-in providers the issue names", () => {
  test.each([
    ["github", "oauth"],
    ["google", "oidc"],
    ["gitlab", "oauth"],
    ["discord", "oauth"],
    ["microsoft-entra-id", "oidc"],
    ["apple", "oidc"],
    ["keycloak", "oidc"],
    ["auth0", "oidc"],
    ["okta", "oidc"],
    ["twitch", "oidc"],
    ["slack", "oidc"],
    ["facebook", "oauth"],
    ["linkedin", "oidc"],
    ["vk", "oauth"],
  ])("@tessera/core/providers/%s is a factory with that id", async (id, type) => {
    const mod = await import(`@tessera/core/providers/${id}`)
    const provider = mod.default({
      clientId: "id",
      clientSecret: "secret",
      issuer: "https://issuer.example/realms/x",
    })
    expect(provider.id).toBe(id)
    expect(provider.type).toBe(type)
    expect(provider.name).toEqual(expect.any(String))
  })

  test("Apple asks for response_mode=form_post", async () => {
    const { default: Apple } = await import("@tessera/core/providers/apple")
    const standIn = await StandIn.start()
    try {
      // Apple's discovery, answered on loopback (no internet here).
      await FakeIssuer.create({
        standIn,
        issuer: "https://appleid.apple.com",
        authorizationEndpoint: "https://appleid.apple.com/auth/authorize",
        tokenEndpoint: "https://appleid.apple.com/auth/token",
        jwksUri: "https://appleid.apple.com/auth/keys",
        clientId: "com.example.app",
        clientSecret: "s",
      })
      const browser = new Browser(
        builtInConfig(Apple({ clientId: "com.example.app", clientSecret: "s" }), standIn),
      )
      const response = await browser.startSignIn("apple")
      const url = new URL(response.headers.get("location")!)
      expect(url.origin).toBe("https://appleid.apple.com")
      expect(url.searchParams.get("response_mode")).toBe("form_post")
    } finally {
      await standIn.stop()
    }
  })
})

describe("a generic OAuth 2 provider (type oauth, explicit endpoints)", () => {
  let standIn: StandIn
  let issuer: FakeIssuer
  beforeAll(async () => {
    standIn = await StandIn.start()
    issuer = await FakeIssuer.create({
      standIn,
      issuer: "https://oauth.example",
      authorizationEndpoint: "https://oauth.example/authorize",
      tokenEndpoint: "https://oauth.example/token",
      userinfoEndpoint: "https://api.oauth.example/me",
      clientId: "c-1",
      clientSecret: "c-1-secret",
      discovery: false,
      tokenResponse: () => ({ access_token: "at-1", token_type: "BEARER", expires_in: 60 }),
      // The default profile() reads `picture` as the image (docs/providers.md, as in Auth.js).
      userinfo: () =>
        json({ id: 1234, name: "Grace", email: "grace@example.com", picture: "https://i/g.png" }),
    })
  })
  afterAll(() => standIn?.stop())

  function oauthConfig(provider: Record<string, unknown> = {}, more: Partial<AuthConfig> = {}) {
    return {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      providers: [
        {
          id: "generic",
          name: "Generic",
          type: "oauth",
          authorization: "https://oauth.example/authorize",
          token: "https://oauth.example/token",
          userinfo: "https://api.oauth.example/me",
          clientId: "c-1",
          clientSecret: "c-1-secret",
          style: { brandColor: "#0a0b0c" },
          [customFetch]: standIn.fetch,
          ...provider,
        },
      ],
      ...more,
    } as AuthConfig
  }

  async function run(config: AuthConfig) {
    const browser = new Browser(config)
    const start = await browser.startSignIn("generic")
    const back = issuer.authorize(start.headers.get("location")!, "grace")
    const done = await browser.request(back.pathname + back.search)
    return { browser, start, done }
  }

  test("default profile keeps id, name, email, image; token_type lowercased; expires_at", async () => {
    let account: any
    let user: any
    const before = Math.floor(Date.now() / 1000)
    const { browser, start, done } = await run(
      oauthConfig(
        {},
        { callbacks: { jwt: (p) => ((account ??= p.account), (user ??= p.user), p.token) } },
      ),
    )
    const url = new URL(start.headers.get("location")!)
    expect(url.searchParams.get("code_challenge_method")).toBe("S256")
    expect(setsSession(done)).toBe(true)
    expect((await browser.session()).user).toEqual({
      name: "Grace",
      email: "grace@example.com",
      image: "https://i/g.png",
    })
    expect(account).toMatchObject({
      providerAccountId: "1234",
      token_type: "bearer",
      type: "oauth",
    })
    expect(account.expires_at).toBeGreaterThanOrEqual(before + 60)
    expect(account.expires_at).toBeLessThanOrEqual(before + 62)
  })

  test("token.request replaces the token call and gets the PKCE verifier", async () => {
    let ctx: any
    let userinfoTokens: any
    const { done } = await run(
      oauthConfig({
        token: {
          url: "https://oauth.example/token",
          request: (c: any) => {
            ctx = c
            return { tokens: { access_token: "custom-at", token_type: "bearer" } }
          },
        },
        userinfo: {
          url: "https://api.oauth.example/me",
          request: (c: any) => {
            userinfoTokens = c.tokens
            return { id: "1234", name: "Grace" }
          },
        },
      }),
    )
    expect(setsSession(done)).toBe(true)
    expect(ctx.checks.code_verifier).toMatch(/^[\w-]{43,128}$/)
    expect(ctx.params.code).toEqual(expect.any(String))
    expect(userinfoTokens).toMatchObject({ access_token: "custom-at", token_type: "bearer" })
  })

  test("userinfo.conform rewrites a non-standard answer", async () => {
    const { browser, done } = await run(
      oauthConfig({
        userinfo: {
          url: "https://api.oauth.example/me",
          conform: async (response: Response) => {
            const body = (await response.json()) as any
            return Response.json({ ...body, name: body.name.toUpperCase() })
          },
        },
      }),
    )
    expect(setsSession(done)).toBe(true)
    expect((await browser.session()).user.name).toBe("GRACE")
  })

  test("style.brandColor reaches the provider's button on the sign-in page", async () => {
    const html = await (await Auth(get("/auth/signin"), oauthConfig())).text()
    expect(html).toContain("#0a0b0c")
    expect(html).toContain("Generic")
  })

  test("checks: ['none'] without its opt-in is a configuration error", async () => {
    const response = await Auth(get("/auth/providers"), oauthConfig({ checks: ["none"] }))
    expect(response.status).toBe(500)
    expect(log.errors.splice(0).length).toBeGreaterThan(0)
  })
})
