/**
 * End to end against a real OpenID Provider (oidc-provider on 127.0.0.1, from
 * @tessera/testing): sign-in -> authorization -> login -> consent -> callback
 * -> session, through `Auth()` with real Requests, PKCE, state and nonce.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { completeOidcLogin, startOidcProvider, type OidcProviderServer } from "@tessera/testing"
import { MemoryAdapter } from "@tessera/testing"
import type { AuthConfig } from "../../../src/config/auth-config.js"
import { Browser, setCookies, recordingLogger, SECRET, setsSession } from "../../harness/index.js"

const ORIGIN = "http://localhost:3000"
const callback = (id: string) => `${ORIGIN}/auth/callback/${id}`

let idp: OidcProviderServer
let postIdp: OidcProviderServer
let userinfoIdp: OidcProviderServer

beforeAll(async () => {
  ;[idp, postIdp, userinfoIdp] = await Promise.all([
    startOidcProvider({
      redirectUris: ["local", "local-state", "local-form-post", "local-db"].map(callback),
      accounts: {
        ada: {
          name: "Ada Lovelace",
          email: "Ada@Example.test",
          picture: "https://img.example/ada.png",
        },
      },
    }),
    startOidcProvider({
      redirectUris: [callback("local-post")],
      tokenEndpointAuthMethod: "client_secret_post",
    }),
    startOidcProvider({ redirectUris: [callback("local-userinfo")], claimsInIdToken: false }),
  ])
})
afterAll(async () => {
  await Promise.all([idp?.stop(), postIdp?.stop(), userinfoIdp?.stop()])
})

function local(server: OidcProviderServer, id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    name: "Local IdP",
    type: "oidc" as const,
    issuer: server.issuer,
    clientId: server.clientId,
    clientSecret: server.clientSecret,
    dangerouslyAllowInsecureHttpRequests: true,
    ...extra,
  }
}

function flowCookie(response: Response, suffix: string) {
  return setCookies(response).find((c) => c.name === `tessera.${suffix}`)
}

/** Runs sign-in up to the callback; returns the browser and the callback the IdP sent it to. */
async function throughIdp(
  config: AuthConfig,
  providerId: string,
  accountId = "ada",
  options: { query?: Record<string, string>; callbackUrl?: string } = {},
) {
  const browser = new Browser(config)
  const start = await browser.startSignIn(providerId, options)
  expect(start.status).toBe(302)
  const location = start.headers.get("location")!
  const back = await completeOidcLogin(location, { accountId })
  return { browser, start, location: new URL(location), back }
}

describe("sign-in through oidc-provider", () => {
  test("PKCE + nonce by default: authorization request, cookies, callback, session, callbacks", async () => {
    const seen: Record<string, any> = {}
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [local(idp, "local")],
      callbacks: {
        signIn(params) {
          seen.signIn = params
          return true
        },
        jwt({ token, account, profile, trigger }) {
          if (trigger === "signIn") seen.jwt = { account, profile }
          return token
        },
      },
    }
    const { browser, start, location, back } = await throughIdp(config, "local", "ada", {
      callbackUrl: "/dashboard",
    })

    // The authorization request.
    expect(location.origin).toBe(idp.issuer)
    const q = location.searchParams
    expect(q.get("response_type")).toBe("code")
    expect(q.get("client_id")).toBe(idp.clientId)
    expect(q.get("redirect_uri")).toBe(callback("local"))
    expect(q.get("scope")).toBe("openid profile email")
    expect(q.get("code_challenge_method")).toBe("S256")
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(q.get("nonce")).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(q.has("state")).toBe(false)

    // Check cookies: encrypted, HttpOnly, Lax, 15 minutes.
    for (const name of ["pkce.code_verifier", "nonce"]) {
      const cookie = flowCookie(start, name)!
      expect(cookie, name).toBeDefined()
      expect(cookie.attributes.httponly).toBe(true)
      expect(cookie.attributes.samesite).toBe("Lax")
      expect(cookie.attributes.path).toBe("/")
      expect(cookie.attributes["max-age"]).toBe("900")
      expect(cookie.value.split(".")).toHaveLength(5) // a JWE, not the raw value
      expect(cookie.value).not.toContain(q.get("nonce")!)
    }
    expect(flowCookie(start, "state")).toBeUndefined()

    // The callback.
    expect(back.method).toBe("GET")
    expect(back.url.href.startsWith(callback("local"))).toBe(true)
    expect(back.url.searchParams.get("iss")).toBe(idp.issuer)
    const done = await browser.request(back.url.href)
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(setsSession(done)).toBe(true)
    const cleared = setCookies(done)
      .filter((c) => c.attributes["max-age"] === "0")
      .map((c) => c.name)
    expect(cleared).toEqual(
      expect.arrayContaining([
        "tessera.pkce.code_verifier",
        "tessera.nonce",
        "tessera.callback-url",
      ]),
    )

    const session = await browser.session()
    // The provider's "Ada@Example.test", normalised as an e-mail sign-in address would be.
    expect(session.user).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.test",
      image: "https://img.example/ada.png",
    })

    // What the callbacks saw.
    // The user's id is its own (a UUID, as in Auth.js); the provider's is the account's.
    expect(seen.signIn.user).toMatchObject({ id: expect.any(String), name: "Ada Lovelace" })
    expect(seen.signIn.user.id).not.toBe("ada")
    expect(seen.signIn.account).toMatchObject({
      provider: "local",
      type: "oidc",
      providerAccountId: "ada",
      token_type: "bearer",
    })
    const account = seen.jwt.account
    expect(Object.keys(account).sort()).toEqual(
      [
        "access_token",
        "expires_at",
        "expires_in",
        "id_token",
        "provider",
        "providerAccountId",
        "scope",
        "token_type",
        "type",
      ].sort(),
    )
    expect(account.expires_at).toBeGreaterThan(Date.now() / 1000 + 3000)
    expect(account.expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600)
    expect(seen.jwt.profile).toMatchObject({
      sub: "ada",
      iss: idp.issuer,
      aud: idp.clientId,
      email: "Ada@Example.test",
    })
  })

  test("state check: a state parameter and cookie, compared on return", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [local(idp, "local-state", { checks: ["pkce", "state", "nonce"] })],
    }
    const { browser, start, location, back } = await throughIdp(config, "local-state", "grace")
    const state = location.searchParams.get("state")!
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(flowCookie(start, "state")?.attributes.httponly).toBe(true)
    expect(back.url.searchParams.get("state")).toBe(state)
    const done = await browser.request(back.url.href)
    expect(setsSession(done)).toBe(true)
    expect(setCookies(done).find((c) => c.name === "tessera.state")?.attributes["max-age"]).toBe(
      "0",
    )
    expect((await browser.session()).user).toMatchObject({
      name: "Grace",
      email: "grace@example.test",
    })
  })

  test("client_secret_post at the token endpoint", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [
        local(postIdp, "local-post", {
          client: { token_endpoint_auth_method: "client_secret_post" },
        }),
      ],
    }
    const { browser, back } = await throughIdp(config, "local-post", "linus")
    expect(setsSession(await browser.request(back.url.href))).toBe(true)
    expect((await browser.session()).user.email).toBe("linus@example.test")
  })

  test("idToken: false reads the profile from userinfo (sub checked against the ID Token)", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [local(userinfoIdp, "local-userinfo", { idToken: false })],
    }
    const { browser, back } = await throughIdp(config, "local-userinfo", "edsger")
    expect(setsSession(await browser.request(back.url.href))).toBe(true)
    expect((await browser.session()).user).toEqual({
      name: "Edsger",
      email: "edsger@example.test",
      image: null,
    })
  })

  test("response_mode=form_post: SameSite=None cookies and a cross-site POST callback without CSRF token", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [
        local(idp, "local-form-post", {
          authorization: { params: { response_mode: "form_post" } },
        }),
      ],
    }
    const { browser, start, location, back } = await throughIdp(config, "local-form-post", "ada", {
      callbackUrl: "/after",
    })
    expect(location.searchParams.get("response_mode")).toBe("form_post")
    for (const name of ["pkce.code_verifier", "nonce", "callback-url"]) {
      const cookie = flowCookie(start, name)!
      expect(cookie.attributes.samesite, name).toBe("None")
      expect(cookie.attributes.secure, name).toBe(true)
    }
    expect(back.method).toBe("POST")
    expect(back.body?.get("code")).toBeTruthy()
    const done = await browser.request(back.url.href, {
      body: back.body!,
      headers: { origin: idp.issuer, "sec-fetch-site": "cross-site" },
    })
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/after`)
    expect(setsSession(done)).toBe(true)
  })

  test("authorization parameters from the sign-in request; protocol parameters cannot be overridden", async () => {
    const config: AuthConfig = { secret: SECRET, trustHost: true, providers: [local(idp, "local")] }
    const browser = new Browser(config)
    const start = await browser.startSignIn("local", {
      query: {
        login_hint: "ada",
        prompt: "login",
        redirect_uri: "https://evil.example/cb",
        client_id: "other",
        code_challenge: "x",
      },
    })
    const q = new URL(start.headers.get("location")!).searchParams
    expect(q.get("login_hint")).toBe("ada")
    expect(q.get("prompt")).toBe("login")
    expect(q.get("redirect_uri")).toBe(callback("local"))
    expect(q.get("client_id")).toBe(idp.clientId)
    expect(q.get("code_challenge")).not.toBe("x")
  })

  test("completeOidcLogin with a shared jar: already signed in at the provider, no login form", async () => {
    const config: AuthConfig = { secret: SECRET, trustHost: true, providers: [local(idp, "local")] }
    const jar = new Map<string, string>()
    const first = new Browser(config)
    const a = await completeOidcLogin((await first.startSignIn("local")).headers.get("location")!, {
      accountId: "grace",
      jar,
    })
    expect(setsSession(await first.request(a.url.href))).toBe(true)
    const second = new Browser(config)
    // The account id is not asked again: the provider's session cookie decides.
    const b = await completeOidcLogin(
      (await second.startSignIn("local")).headers.get("location")!,
      { accountId: "ignored", jar },
    )
    expect(setsSession(await second.request(b.url.href))).toBe(true)
    expect((await second.session()).user.email).toBe("grace@example.test")
  })

  test("database sessions: the user and the account are stored", async () => {
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [local(idp, "local-db")],
    }
    const { browser, back } = await throughIdp(config, "local-db", "ada")
    const done = await browser.request(back.url.href)
    expect(setsSession(done)).toBe(true)
    const accounts = [...adapter.store.accounts.values()]
    expect(accounts).toHaveLength(1)
    expect(accounts[0]).toMatchObject({
      provider: "local-db",
      type: "oidc",
      providerAccountId: "ada",
      token_type: "bearer",
    })
    expect(typeof accounts[0]!.access_token).toBe("string")
    expect(typeof accounts[0]!.id_token).toBe("string")
    const users = [...adapter.store.users.values()]
    expect(users).toHaveLength(1)
    expect(users[0]).toMatchObject({ name: "Ada Lovelace", email: "ada@example.test" })
    expect((await browser.session()).user.email).toBe("ada@example.test")
  })
})

describe("refusals through oidc-provider", () => {
  test("the user cancels at the provider: access_denied -> OAuthCallbackError, logged, no session", async () => {
    const { logger, refusals } = recordingLogger()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      debug: true,
      logger,
      providers: [local(idp, "local")],
    }
    const browser = new Browser(config)
    const start = await browser.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { cancel: true })
    expect(back.url.searchParams.get("error")).toBe("access_denied")
    const done = await browser.request(back.url.href)
    expect(done.status).toBe(302)
    // Auth.js's error value, and a code that lets the page say the sign-in was cancelled.
    expect(done.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=OAuthCallbackError&code=access_denied`,
    )
    expect(setsSession(done)).toBe(false)
    expect(refusals.at(-1)?.name).toBe("OAuthCallbackError")
    expect(refusals.at(-1)?.message).toContain("access_denied")
    const page = await (await browser.request(done.headers.get("location")!)).text()
    expect(page).toContain(
      '<div class="error" role="alert">Sign-in was cancelled, or the provider refused it. Try again, or choose another way to sign in.</div>',
    )
  })

  test("the signIn callback refuses: AccessDenied on the error page, no session", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: recordingLogger().logger,
      providers: [local(idp, "local")],
      callbacks: { signIn: ({ account }) => account?.providerAccountId !== "mallory" },
    }
    const { browser, back } = await throughIdp(config, "local", "mallory")
    const done = await browser.request(back.url.href)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(setsSession(done)).toBe(false)
  })

  test("the signIn callback redirects elsewhere: no session", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      providers: [local(idp, "local")],
      callbacks: { signIn: () => "/waitlist" },
    }
    const { browser, back } = await throughIdp(config, "local", "ada")
    const done = await browser.request(back.url.href)
    expect(done.headers.get("location")).toBe(`${ORIGIN}/waitlist`)
    expect(setsSession(done)).toBe(false)
  })
})
