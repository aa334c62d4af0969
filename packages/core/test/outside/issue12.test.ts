/**
 * Issue 12 as an outside tester reads it (the issue text and docs/sessions.md, not the
 * sources): sessions a user can list and end over HTTP, for JWT and database sessions on a
 * real SQLite file; the server functions of `@tessera/core/sessions`; provider tokens
 * refreshed by `getAccessToken` against a real OpenID provider; RP-initiated and
 * back-channel logout. Everything through `Auth()` with real `Request`s.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest"
import { Auth, getAccessToken, type AuthConfig } from "@tessera/core"
import { RefreshTokenError } from "@tessera/core/errors"
import { getToken } from "@tessera/core/jwt"
import Credentials from "@tessera/core/providers/credentials"
import { listSessions, revokeSession, revokeUserSessions } from "@tessera/core/sessions"
import type { SqlAdapterInstance } from "@tessera/sql"
import {
  completeOidcLogin,
  completeOidcLogout,
  localOidcProvider,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { Browser, ORIGIN, SECRET } from "../harness/index.js"
import { outsideSetup } from "./setup.js"

const { log, sqlite, secondProcess } = outsideSetup()

/** Ada and Bob sign in with a password; both are stored users. */
const users = {
  ada: { id: "u-ada", email: "ada@example.com", name: "Ada" },
  bob: { id: "u-bob", email: "bob@example.com", name: "Bob" },
}
const passwords = Credentials({
  credentials: { username: {}, password: { type: "password" } },
  authorize: ({ username, password }) =>
    password === "pw" ? (users[username as keyof typeof users] ?? null) : null,
})

function sessionConfig(adapter: SqlAdapterInstance | undefined, strategy: "jwt" | "database") {
  const revoked: { session: Record<string, unknown>; reason: string }[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: log.logger,
    adapter,
    providers: [passwords],
    session: { strategy },
    events: { sessionRevoked: (message) => void revoked.push(message as never) },
  }
  return { config, revoked }
}

/** A browser with its own User-Agent that signs in as `username`. */
async function signedIn(
  config: AuthConfig,
  username: string,
  userAgent = `UA ${username}`,
  extraHeaders: Record<string, string> = {},
) {
  const browser = new Browser(config)
  const fetch = browser.fetch.bind(browser)
  browser.fetch = (path, init = {}) => {
    const headers = new Headers(init.headers)
    headers.set("user-agent", userAgent)
    for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value)
    return fetch(path, { ...init, headers })
  }
  const csrfToken = await browser.csrfToken()
  const response = await browser.request("/auth/callback/credentials", {
    body: { username, password: "pw", csrfToken },
  })
  expect(response.status).toBe(302)
  expect((await browser.session())?.user?.email).toBe(users[username as keyof typeof users].email)
  return browser
}

async function json(browser: Browser, path: string, body?: Record<string, unknown>) {
  const response = body
    ? await browser.fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
    : await browser.fetch(path)
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null, response }
}

describe.each(["database", "jwt"] as const)(
  "sessions routes, %s sessions on SQLite",
  (strategy) => {
    test("list, revoke one, sign out others and all", async () => {
      const { config, revoked } = sessionConfig(await sqlite(), strategy)
      // A revoked JWT session stops at its next check when the record is asked every time.
      if (strategy === "jwt") config.session!.revalidateAge = 0

      const anonymous = await json(new Browser(config), "/auth/sessions")
      expect(anonymous.status).toBe(401)
      expect(anonymous.body).toMatchObject({ error: "SessionRequired" })

      const laptop = await signedIn(config, "ada", "Laptop")
      const phone = await signedIn(config, "ada", "Phone")
      const tablet = await signedIn(config, "ada", "Tablet")
      const bob = await signedIn(config, "bob")

      const listed = await json(laptop, "/auth/sessions")
      expect(listed.status).toBe(200)
      expect(listed.response.headers.get("content-type")).toMatch(/application\/json/)
      const entries = listed.body as Record<string, unknown>[]
      expect(entries).toHaveLength(3)
      for (const entry of entries) {
        expect(Object.keys(entry).sort()).toEqual(
          ["createdAt", "current", "expires", "id", "lastSeenAt", "userAgent"].sort(),
        )
        for (const key of ["createdAt", "lastSeenAt", "expires"])
          expect(new Date(entry[key] as string).toISOString()).toBe(entry[key])
      }
      // Newest first; only this browser's is current.
      expect(entries.map((e) => e.userAgent)).toEqual(["Tablet", "Phone", "Laptop"])
      expect(entries.map((e) => e.current)).toEqual([false, false, true])
      const [tabletId, phoneId] = [entries[0]!.id as string, entries[1]!.id as string]
      const bobId = ((await json(bob, "/auth/sessions")).body as { id: string }[])[0]!.id

      // POSTs need the CSRF token.
      expect((await json(laptop, "/auth/sessions/revoke", { id: phoneId })).status).not.toBe(200)
      expect(await phone.session()).not.toBeNull()

      const csrfToken = await laptop.csrfToken()
      // Someone else's session and an unknown id: the same 404.
      const foreign = await json(laptop, "/auth/sessions/revoke", { id: bobId, csrfToken })
      const unknown = await json(laptop, "/auth/sessions/revoke", { id: "no-such-id", csrfToken })
      expect(foreign.status).toBe(404)
      expect(unknown.status).toBe(404)
      expect(foreign.body).toEqual(unknown.body)
      expect(await bob.session()).not.toBeNull()

      // JSON body with the token ends that one session.
      const ended = await json(laptop, "/auth/sessions/revoke", { id: phoneId, csrfToken })
      expect(ended.status).toBe(200)
      expect(await phone.session()).toBeNull()
      expect(await laptop.session()).not.toBeNull()
      expect(revoked).toEqual([
        { session: expect.objectContaining({ id: phoneId, userId: "u-ada" }), reason: "user" },
      ])

      // scope=others (form body): the tablet ends, this one stays.
      const others = await laptop.request("/auth/signout", {
        body: { scope: "others", csrfToken: await laptop.csrfToken() },
      })
      expect(others.status).toBe(302)
      expect(await tablet.session()).toBeNull()
      expect(await laptop.session()).not.toBeNull()
      expect(revoked.map((r) => r.session.id)).toContain(tabletId)

      // scope=all: every session of the user, then the usual sign-out.
      const again = await signedIn(config, "ada", "Again")
      const all = await laptop.request("/auth/signout", {
        body: { scope: "all", csrfToken: await laptop.csrfToken() },
      })
      expect(all.status).toBe(302)
      expect(await laptop.session()).toBeNull()
      expect(await again.session()).toBeNull()
      expect(await listSessions(config, "u-ada")).toEqual([])
      // Bob is untouched.
      expect(await bob.session()).not.toBeNull()
      expect(await listSessions(config, "u-bob")).toHaveLength(1)
    })

    test("server functions: list, revoke one, revoke all; sessionRevoked says server", async () => {
      const { config, revoked } = sessionConfig(await sqlite(), strategy)
      if (strategy === "jwt") config.session!.revalidateAge = 0
      const one = await signedIn(config, "ada", "One")
      const two = await signedIn(config, "ada", "Two")
      const records = await listSessions(config, "u-ada")
      expect(records).toHaveLength(2)
      expect(records[0]).toMatchObject({ userId: "u-ada", userAgent: "Two" })
      // The network prefix, never the address (trustHost: the proxy's right-most entry).
      const proxied = await signedIn(config, "bob", "Proxied", {
        "x-forwarded-for": "198.51.100.1, 203.0.113.57",
      })
      const [record] = await listSessions(config, "u-bob")
      expect(record!.ipPrefix).toMatch(/^203\.0\.113\./)
      expect(JSON.stringify(record)).not.toContain("203.0.113.57")
      await proxied.signOut()
      expect(records[0]!.createdAt).toBeInstanceOf(Date)

      expect(await revokeSession(config, records[0]!.id)).toBe(true)
      expect(await revokeSession(config, records[0]!.id)).toBe(false)
      expect(await two.session()).toBeNull()
      expect(await revokeUserSessions(config, "u-ada")).toBe(1)
      expect(await one.session()).toBeNull()
      expect(revoked.map((r) => r.reason)).toEqual(["server", "server"])
    })
  },
)

test("JWT sessions carry a sid; a revoked or signed-out session stops within revalidateAge (default 60 s)", async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2031-03-01T10:00:00Z") })
  const { config } = sessionConfig(await sqlite(), "jwt")
  const laptop = await signedIn(config, "ada", "Laptop")
  const request = new Request(`${ORIGIN}/`, { headers: { cookie: laptop.jar.header() } })
  const token = await getToken({ req: request, secret: SECRET })
  const [record] = await listSessions(config, "u-ada")
  expect(token?.sid).toBe(record!.id)
  const copy = new Browser(config, ORIGIN)
  for (const [name, value] of laptop.jar) copy.jar.set(name, value)

  // Signing out deletes the record; the copied cookie keeps working until it revalidates.
  expect((await laptop.signOut()).status).toBe(302)
  expect(await listSessions(config, "u-ada")).toEqual([])
  expect(await copy.session()).not.toBeNull()
  vi.setSystemTime(Date.now() + 61_000)
  expect(await copy.session()).toBeNull()

  // revokeSession: the same, for a session that did not sign out.
  const phone = await signedIn(config, "ada", "Phone")
  await revokeUserSessions(config, "u-ada")
  vi.setSystemTime(Date.now() + 30_000)
  expect(await phone.session()).not.toBeNull()
  vi.setSystemTime(Date.now() + 31_000)
  expect(await phone.session()).toBeNull()
})

test("without an adapter JWT sessions work and the session routes answer 501 naming the adapter", async () => {
  const { config } = sessionConfig(undefined, "jwt")
  const ada = await signedIn(config, "ada")
  const listed = await json(ada, "/auth/sessions")
  expect(listed.status).toBe(501)
  expect(JSON.stringify(listed.body)).toMatch(/adapter/i)
  const revoke = await json(ada, "/auth/sessions/revoke", {
    id: "x",
    csrfToken: await ada.csrfToken(),
  })
  expect(revoke.status).toBe(501)
  expect(JSON.stringify(revoke.body)).toMatch(/adapter/i)
  expect(await ada.session()).not.toBeNull()
  const all = await ada.request("/auth/signout", {
    body: { scope: "all", csrfToken: await ada.csrfToken() },
  })
  // "Sign out everywhere" cannot be done: 501 too, rather than a plain sign-out.
  expect(all.status).toBe(501)
  expect(await all.json()).toMatchObject({ error: "MissingAdapter" })
})

describe("against a real OpenID provider", () => {
  let idp: OidcProviderServer
  beforeAll(async () => {
    idp = await startOidcProvider({
      redirectUris: [`${ORIGIN}/auth/callback/local`],
      accessTokenTtl: 30, // always within 60 s of expiry: every getAccessToken refreshes
      backchannelLogoutUri: `${ORIGIN}/auth/backchannel-logout/local`,
      postLogoutRedirectUris: [`${ORIGIN}/bye`],
    })
  })
  afterAll(() => idp?.stop())

  function oidcConfig(
    adapter: SqlAdapterInstance,
    options: Record<string, unknown> = {},
    strategy: "jwt" | "database" = "jwt",
  ) {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      adapter,
      session: { strategy, revalidateAge: 0 },
      providers: [
        {
          ...localOidcProvider(idp),
          authorization: {
            params: { scope: "openid email profile offline_access", prompt: "consent" },
          },
          ...options,
        },
      ],
    }
    return config
  }

  async function signInAtIdp(config: AuthConfig, accountId = "ada") {
    const browser = new Browser(config)
    const idpJar = new Map<string, string>()
    const start = await browser.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId, jar: idpJar })
    const done = await browser.request(back.url.pathname + back.url.search)
    expect(done.status).toBe(302)
    const session = await browser.session()
    expect(session?.user?.email).toBe(`${accountId}@example.test`)
    const adapter = config.adapter as SqlAdapterInstance
    const user = await adapter.getUserByEmail!(`${accountId}@example.test`)
    return { browser, idpJar, userId: user!.id }
  }

  async function storedAccount(adapter: SqlAdapterInstance, userId: string) {
    return adapter.db
      .selectFrom("accounts")
      .selectAll()
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow()
  }

  test("getAccessToken refreshes, stores the rotated tokens, one refresh for 20 calls, invalid_grant clears", async () => {
    const adapter = await sqlite()
    const config = oidcConfig(adapter)
    const { userId } = await signInAtIdp(config)
    const before = await storedAccount(adapter, userId)
    expect(before.refresh_token).toEqual(expect.any(String))

    const fresh = await getAccessToken(config, { userId, provider: "local" })
    expect(Object.keys(fresh).sort()).toEqual(["accessToken", "expiresAt", "scope"])
    expect(fresh.accessToken).not.toBe(before.access_token)
    expect(fresh.scope).toContain("offline_access")
    const after = await storedAccount(adapter, userId)
    expect(after.access_token).toBe(fresh.accessToken)
    expect(after.refresh_token).not.toBe(before.refresh_token) // rotated
    expect(Number(after.expires_at)).toBe(fresh.expiresAt)

    // 20 concurrent calls: one refresh (a second would spend the rotated token twice).
    const many = await Promise.all(
      Array.from({ length: 20 }, () => getAccessToken(config, { userId, provider: "local" })),
    )
    expect(new Set(many.map((t) => t.accessToken)).size).toBe(1)
    expect(many[0]!.accessToken).not.toBe(fresh.accessToken)
    // Still refreshable afterwards: the grant was not revoked for reuse.
    await expect(getAccessToken(config, { userId, provider: "local" })).resolves.toBeTruthy()

    // A refresh token the provider refuses: RefreshTokenError, the tokens cleared.
    await adapter.db
      .updateTable("accounts")
      .set({ refresh_token: "not-a-refresh-token" })
      .where("user_id", "=", userId)
      .execute()
    const refused = await getAccessToken(config, { userId, provider: "local" }).catch((e) => e)
    expect(refused).toBeInstanceOf(RefreshTokenError)
    expect(refused.code).toBe("invalid_grant")
    const cleared = await storedAccount(adapter, userId)
    expect(cleared.access_token ?? null).toBeNull()
    expect(cleared.refresh_token ?? null).toBeNull()
  })

  test("two processes on one SQLite file, tokens shorter-lived than the 60 s margin: concurrent getAccessToken calls rotate the refresh token once", async () => {
    const first = await sqlite()
    const second = secondProcess(first.path)
    const [one, two] = [oidcConfig(first), oidcConfig(second)]
    const { userId } = await signInAtIdp(one)
    const before = await storedAccount(first, userId)
    const calls = Array.from({ length: 20 }, (_, i) =>
      getAccessToken(i % 2 ? one : two, { userId, provider: "local" }),
    )
    const results = await Promise.allSettled(calls)
    expect(results.filter((r) => r.status === "rejected")).toEqual([])
    const tokens = results.map((r) => (r as PromiseFulfilledResult<{ accessToken: string }>).value)
    expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1)
    const after = await storedAccount(second, userId)
    expect(after.refresh_token).not.toBe(before.refresh_token)
    expect(after.access_token).toBe(tokens[0]!.accessToken)
    // The stored refresh token is the live one: the next refresh works.
    await expect(getAccessToken(two, { userId, provider: "local" })).resolves.toBeTruthy()
  })

  test('signOut: "provider" ends the local session and redirects to end_session_endpoint', async () => {
    const adapter = await sqlite()
    const config = oidcConfig(adapter, { signOut: "provider", postLogoutRedirectUri: "/bye" })
    const { browser, idpJar, userId } = await signInAtIdp(config)
    const response = await browser.signOut()
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.origin).toBe(idp.issuer)
    const discovery = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()
    expect(`${location.origin}${location.pathname}`).toBe(discovery.end_session_endpoint)
    expect(location.searchParams.get("client_id")).toBe(idp.clientId)
    expect(location.searchParams.get("post_logout_redirect_uri")).toBe(`${ORIGIN}/bye`)
    expect(location.searchParams.get("state")).toEqual(expect.any(String))
    const { id_token } = await storedAccount(adapter, userId)
    expect(location.searchParams.get("id_token_hint")).toBe(id_token)
    expect(await browser.session()).toBeNull()
    expect(await listSessions(config, userId)).toEqual([])

    // The provider accepts it and comes back to the app with the state.
    const back = await completeOidcLogout(location, { jar: idpJar })
    expect(`${back.origin}${back.pathname}`).toBe(`${ORIGIN}/bye`)
    expect(back.searchParams.get("state")).toBe(location.searchParams.get("state"))
  })

  test("RP-initiated logout without an adapter, and a foreign callbackUrl: post_logout_redirect_uri stays on the app", async () => {
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      providers: [{ ...localOidcProvider(idp), signOut: "provider" }],
    }
    const browser = new Browser(config)
    const start = await browser.startSignIn("local")
    const back = await completeOidcLogin(start.headers.get("location")!, { accountId: "ada" })
    await browser.request(back.url.pathname + back.url.search)
    const response = await browser.request("/auth/signout", {
      body: { csrfToken: await browser.csrfToken(), callbackUrl: "https://evil.example/x" },
    })
    const location = new URL(response.headers.get("location")!)
    expect(location.origin).toBe(idp.issuer)
    expect(location.searchParams.get("id_token_hint")).toEqual(expect.any(String))
    expect(new URL(location.searchParams.get("post_logout_redirect_uri")!).origin).toBe(ORIGIN)
    expect(await browser.session()).toBeNull()
  })

  test.each(["jwt", "database"] as const)(
    "back-channel logout (%s sessions): 200 ends the sessions by sid or sub; forged, replayed, wrong audience, nonce, old: 400",
    async (strategy) => {
      const adapter = await sqlite()
      const config = oidcConfig(adapter, {}, strategy)
      const first = await signInAtIdp(config)
      const { id_token } = await storedAccount(adapter, first.userId)
      const firstSid = JSON.parse(Buffer.from(id_token!.split(".")[1]!, "base64url").toString()).sid
      expect(firstSid).toEqual(expect.any(String))
      const second = await signInAtIdp(config) // another browser, another provider session
      const third = await signInAtIdp(config)
      const deliver = async (token: string) => {
        const response = await Auth(
          new Request(`${ORIGIN}/auth/backchannel-logout/local`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ logout_token: token }),
          }),
          config,
        )
        expect(response.headers.get("cache-control")).toBe("no-store")
        const text = await response.text()
        return { status: response.status, body: response.status === 200 ? null : JSON.parse(text) }
      }
      const refused = { status: 400, body: expect.objectContaining({ error: "invalid_request" }) }
      const now = Math.floor(Date.now() / 1000)

      expect(await deliver(idp.logoutToken({ sub: "ada", aud: "another-client" }))).toEqual(refused)
      expect(await deliver(idp.logoutToken({ sub: "ada", nonce: "n" }))).toEqual(refused)
      expect(
        await deliver(idp.logoutToken({ sub: "ada", iat: now - 3600, exp: now - 3000 })),
      ).toEqual(refused)
      const [header, payload] = idp.logoutToken({ sub: "ada" }).split(".")
      expect(await deliver(`${header}.${payload}.${"A".repeat(342)}`)).toEqual(refused)
      expect(
        await deliver(idp.logoutToken({ sub: "ada", iat: now + 3600, exp: now + 3700 })),
      ).toEqual(refused)
      expect(await deliver(idp.logoutToken({ sub: "ada", jti: undefined }))).toEqual(refused)
      expect(await deliver(idp.logoutToken({ sub: "ada", events: {} }))).toEqual(refused)
      expect(await deliver(idp.logoutToken({}))).toEqual(refused) // neither sid nor sub
      expect(await listSessions(config, first.userId)).toHaveLength(3)

      // sid: that provider session only.
      expect(await deliver(idp.logoutToken({ sid: firstSid }))).toEqual({ status: 200, body: null })
      expect(await first.browser.session()).toBeNull()
      expect(await second.browser.session()).not.toBeNull()
      expect(await listSessions(config, first.userId)).toHaveLength(2)

      // sub alone: every session of that provider account.
      const good = idp.logoutToken({ sub: "ada" })
      expect(await deliver(good)).toEqual({ status: 200, body: null })
      expect(await listSessions(config, first.userId)).toEqual([])
      expect(await second.browser.session()).toBeNull()
      expect(await third.browser.session()).toBeNull()
      expect(await deliver(good)).toEqual(refused) // replay
    },
  )
})

describe("edges of the session routes", () => {
  test("401 on every route without a session; 400 for a revoke without an id; form body works; revoking the current session clears its cookie", async () => {
    const { config } = sessionConfig(await sqlite(), "database")
    const stranger = new Browser(config)
    const strangerToken = await stranger.csrfToken()
    const revokeAnon = await json(stranger, "/auth/sessions/revoke", {
      id: "x",
      csrfToken: strangerToken,
    })
    expect(revokeAnon.status).toBe(401)
    expect(revokeAnon.body).toMatchObject({ error: "SessionRequired" })

    const ada = await signedIn(config, "ada")
    const csrfToken = await ada.csrfToken()
    const missing = await json(ada, "/auth/sessions/revoke", { csrfToken })
    expect(missing.status).toBe(400)

    const [own] = (await json(ada, "/auth/sessions")).body as { id: string }[]
    const response = await ada.request("/auth/sessions/revoke", {
      body: { id: own!.id, csrfToken },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("set-cookie")).toMatch(/tessera\.session-token=;/)
    expect(await ada.session()).toBeNull()
  })

  test("the routes live under basePath", async () => {
    const { config } = sessionConfig(await sqlite(), "database")
    config.basePath = "/api/auth"
    const browser = new Browser(config)
    const { csrfToken } = await (await browser.fetch("/api/auth/csrf")).json()
    const signedIn = await browser.request("/api/auth/callback/credentials", {
      body: { username: "ada", password: "pw", csrfToken },
    })
    expect(signedIn.status).toBe(302)
    const listed = await browser.fetch("/api/auth/sessions")
    expect(listed.status).toBe(200)
    expect(await listed.json()).toHaveLength(1)
  })

  test("back-channel logout without a logout_token, or by GET", async () => {
    const { config } = sessionConfig(await sqlite(), "database")
    config.providers = [
      {
        id: "idp",
        name: "IdP",
        type: "oidc",
        issuer: "https://idp.example",
        clientId: "c",
        clientSecret: "s",
      },
    ]
    const empty = await Auth(
      new Request(`${ORIGIN}/auth/backchannel-logout/idp`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "",
      }),
      config,
    )
    expect(empty.status).toBe(400)
    expect(empty.headers.get("cache-control")).toBe("no-store")
    expect(await empty.json()).toMatchObject({ error: "invalid_request" })
    const byGet = await Auth(new Request(`${ORIGIN}/auth/backchannel-logout/idp`), config)
    expect(byGet.status).toBe(405)
  })
})
