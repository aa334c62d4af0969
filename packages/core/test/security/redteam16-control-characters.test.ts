/**
 * Red team 16 (carried over): zero bytes (U+0000) and other control characters in what reaches
 * the database from outside, on SQLite and on a real PostgreSQL (which refuses U+0000 in text:
 * "invalid byte sequence", a 500 and an error log). Each must end in a clean 4xx or error
 * redirect, never a database error: the `sid`, `sub` and `jti` of a back-channel logout token
 * (signed by the real oidc-provider), a provider's account id (an ID Token's `sub`), the tokens
 * of a token response, the state/nonce/PKCE cookies and the session cookie (percent-encoded:
 * a raw control character cannot be sent in a header), an e-mail link's token and address, and
 * an account id the app's `authorize` took from the form.
 *
 * Before the fix, the logout token, provider account id, token response, refresh answer and
 * `authorize` id tests failed: on PostgreSQL a 500 (logout) or `error=Configuration` with an
 * `AdapterError` logged; on SQLite the value was stored (a session for `ada\u0000x`) or the
 * logout answered 200. The cookies and e-mail links held already (a refused check, no
 * session, 400): their tests stay, to keep it so.
 */
import { afterEach, describe, expect, test } from "vitest"
import { Auth, customFetch, getAccessToken, type AuthConfig } from "@tessera/core"
import { OAuthProviderError } from "@tessera/core/errors"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import { completeOidcLogin, localOidcProvider } from "@tessera/testing"
import type { Backend } from "../harness/backends.js"
import { oidcProviderAndDatabases } from "../harness/idp-databases.js"
import {
  Browser,
  get,
  Jar,
  ORIGIN,
  post,
  recordingLogger,
  SECRET,
  sessionCookieName,
  signIn,
} from "../harness/index.js"
import { signedInWithRefreshToken } from "../harness/offline-sign-in.js"

const LOGOUT_PATH = "/auth/backchannel-logout/local"
/** U+0000, which PostgreSQL text refuses, and the other kinds of control character. */
const CONTROLS = ["\u0000", "\u0001", "\n", "\u007f"]
/** Each with its name for the test's title: [U+0000, "\u0000"], ... */
const CASES = CONTROLS.map(
  (c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, "0")}`, c] as const,
)

const setup = oidcProviderAndDatabases({
  redirectUris: [`${ORIGIN}/auth/callback/local`],
  backchannelLogoutUri: `${ORIGIN}${LOGOUT_PATH}`,
})

/** A sign-in through the provider as `accountId`, up to the callback the browser is sent back to. */
async function atProvider(config: AuthConfig, accountId: string) {
  const browser = new Browser(config)
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
  return { browser, callback: back.url.pathname + back.url.search }
}

describe.each(setup.databases)("on %s", (_name, makeBackend) => {
  let backend: Backend | undefined
  let log: ReturnType<typeof recordingLogger>
  afterEach(async () => {
    await backend?.close()
    backend = undefined
  })

  /** The app: database sessions, the local OpenID provider (answers through `tamper`). */
  async function app(tamper?: (tokens: Record<string, unknown>) => void): Promise<AuthConfig> {
    backend = await makeBackend()
    log = recordingLogger()
    const fetchImpl: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!tamper || !String(init?.body ?? "").includes("grant_type=authorization_code"))
        return response
      const tokens = (await response.json()) as Record<string, unknown>
      tamper(tokens)
      return Response.json(tokens, { headers: { "cache-control": "no-store" } })
    }
    return {
      secret: SECRET,
      trustHost: true,
      adapter: backend.adapter,
      session: { strategy: "database" },
      logger: log.logger,
      providers: [
        {
          ...localOidcProvider(setup.idp, "local"),
          // All three checks, each with its cookie.
          checks: ["pkce", "state", "nonce"],
          [customFetch]: fetchImpl,
        },
        Email({ sendVerificationRequest: async () => {} }),
        // An app whose user ids are what its users typed (a username).
        Credentials({
          credentials: { username: {} },
          authorize: (credentials) => ({ id: String(credentials.username), name: "Someone" }),
        }),
      ],
    }
  }

  /** No database error reached the log: client input ends at debug, a provider's fault typed. */
  const noDatabaseError = () =>
    expect(
      log.logged.filter((e) => e.type === "AdapterError" || /byte/i.test(e.cause ?? "")),
    ).toEqual([])

  test.each(CASES)("a logout token whose sid, sub or jti holds %s: 400", async (_name, c) => {
    const config = await app()
    for (const claims of [
      { sub: `ada${c}` },
      { sid: `session${c}` },
      { sub: "ada", sid: `session${c}` },
      { sub: "ada", jti: `jti${c}` },
    ]) {
      const response = await Auth(
        post(LOGOUT_PATH, { logout_token: setup.idp.logoutToken(claims) }),
        config,
      )
      expect({ claims, status: response.status }).toEqual({ claims, status: 400 })
      expect(await response.json()).toMatchObject({ error: "invalid_request" })
    }
    expect(log.errors).toEqual([])
  })

  test.each(CASES)(
    "a provider account id (the ID Token's sub) holding %s: an error redirect",
    async (_name, c) => {
      const config = await app()
      const { browser, callback } = await atProvider(config, `ada${c}x`)
      const response = await browser.request(callback)
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toMatch(/error=/)
      expect(await backend!.users()).toEqual([])
      noDatabaseError()
    },
  )

  test.each(["access_token", "refresh_token", "token_type", "scope"])(
    "a token response whose %s holds U+0000: an error redirect, nothing stored",
    async (field) => {
      const config = await app((tokens) => {
        tokens[field] = `${String(tokens[field] ?? "bearer")}\u0000`
      })
      const { browser, callback } = await atProvider(config, "ada")
      const response = await browser.request(callback)
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toMatch(/error=/)
      expect(await backend!.accounts()).toEqual([])
      noDatabaseError()
    },
  )

  test("a refresh answer whose access_token holds U+0000: refused, nothing stored", async () => {
    backend = await makeBackend()
    const fetchImpl: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!String(init?.body ?? "").includes("grant_type=refresh_token")) return response
      const tokens = (await response.json()) as Record<string, unknown>
      return Response.json({ ...tokens, access_token: `${String(tokens.access_token)}\u0000` })
    }
    const { config, userId, account } = await signedInWithRefreshToken(
      setup.idp,
      backend,
      fetchImpl,
    )
    const ids = { provider: "local", providerAccountId: (await account()).providerAccountId }
    await backend.adapter.updateAccount!({ ...ids, expires_at: 1 })
    const before = await account()

    const refused = await getAccessToken(config, { userId, provider: "local" }).catch((e) => e)
    expect(refused).toBeInstanceOf(OAuthProviderError)
    expect(refused.message).toMatch(/access_token has a control character/)
    expect((await account()).access_token).toBe(before.access_token)
  })

  test.each(CASES)(
    "state, nonce and PKCE cookies (and the state) holding %s: refused, 302",
    async (_name, c) => {
      const config = await app()
      const { browser, callback } = await atProvider(config, "ada")
      for (const name of ["state", "nonce", "pkce.code_verifier"]) {
        // The browser's cookies, one of the checks' with the character appended.
        const jar = new Jar(Object.fromEntries(browser.jar))
        const key = [...jar.keys()].find((key) => key.endsWith(name))
        expect({ name, key }).toEqual({ name, key: expect.any(String) })
        // Raw: the jar percent-encodes it in the header, and the cookie is read decoded.
        jar.set(key!, `${jar.get(key!)}${c}`)
        const response = await Auth(get(callback, { jar }), config)
        expect({ name, status: response.status }).toEqual({ name, status: 302 })
        expect(response.headers.get("location")).toMatch(/error=/)
      }
      const url = new URL(callback, ORIGIN)
      url.searchParams.set("state", `${url.searchParams.get("state")}${c}`)
      const tampered = await Auth(get(url.pathname + url.search, { jar: browser.jar }), config)
      expect(tampered.headers.get("location")).toMatch(/error=/)
      expect(log.errors).toEqual([])
      // The same callback with the cookies as they were signs in: the character was refused.
      const intact = await browser.request(callback)
      expect(intact.headers.get("location")).not.toMatch(/error=/)
    },
  )

  test.each(CASES)("a session cookie holding %s: no session, 200", async (_name, c) => {
    const config = await app()
    const jar = new Jar({ [sessionCookieName()]: `abc${c}def` })
    const response = await Auth(get("/auth/session", { jar }), config)
    expect(response.status).toBe(200)
    expect(await response.json()).toBeNull()
    expect(log.errors).toEqual([])
  })

  test.each(CASES)("an e-mail link whose token or address holds %s: 400", async (_name, c) => {
    const config = await app()
    for (const query of [
      { token: `abc${c}`, email: "ada@example.com" },
      { token: "abc", email: `ada${c}@example.com` },
    ]) {
      const response = await Auth(get(`/auth/callback/email?${new URLSearchParams(query)}`), config)
      expect({ query, status: response.status }).toEqual({ query, status: 400 })
    }
    expect(log.errors).toEqual([])
  })

  test.each(CASES)(
    "a credentials account id (typed by the user) holding %s: refused",
    async (_name, c) => {
      const config = await app()
      const { response } = await signIn(config, { username: `ada${c}` })
      expect(response.status).toBeLessThan(500)
      expect(response.headers.get("location") ?? "").toMatch(/error=/)
      noDatabaseError()
    },
  )
})
