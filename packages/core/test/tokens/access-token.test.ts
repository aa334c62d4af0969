/**
 * Provider tokens that stay fresh, against a real OpenID provider
 * (oidc-provider from @tessera/testing, `offline_access`, rotating refresh
 * tokens): `getAccessToken` on the memory adapter, SQLite and PostgreSQL,
 * with rotation, a refused (replayed) refresh token, 20 concurrent calls
 * making one refresh request, also through two configuration objects (a new
 * one per request, as `initAuthConfig((c) => ({ ... }))` makes) with an
 * adapter that has no refresh lease, and two "processes" (two module
 * instances of core, two adapters on one database) refreshing once between
 * them; and `refreshTokenSet` in the `jwt` callback recipe, with the same rule.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest"
import { customFetch, type AuthConfig } from "@tessera/core"
import { getAccessToken, refreshTokenSet } from "@tessera/core"
import type { Adapter } from "@tessera/core/adapters"
import type { RefreshTokenError } from "@tessera/core/errors"
import { SqlAdapter } from "@tessera/sql"
import {
  completeOidcLogin,
  localOidcProvider,
  startOidcProvider,
  type OidcProviderServer,
} from "@tessera/testing"
import { memoryBackend, PostgresFixture, sqliteBackend, type Backend } from "../harness/backends.js"
import { Browser, recordingLogger, SECRET } from "../harness/index.js"

const ORIGIN = "http://localhost:3000"
let idp: OidcProviderServer
let shortLived: OidcProviderServer
const postgres = new PostgresFixture()

beforeAll(async () => {
  ;[idp, shortLived] = await Promise.all([
    startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`] }),
    // Tokens that expire within the 60 s margin: every check refreshes.
    startOidcProvider({ redirectUris: [`${ORIGIN}/auth/callback/local`], accessTokenTtl: 30 }),
    postgres.start(),
  ])
}, 60_000)
afterAll(async () => {
  await Promise.all([idp?.stop(), shortLived?.stop(), postgres.stop()])
})

/** Counts the refresh requests Tessera sends to the provider. */
function refreshCounter() {
  const counter = { refreshes: 0, fetch: undefined as unknown as typeof fetch }
  counter.fetch = async (input, init) => {
    if (String(init?.body ?? "").includes("grant_type=refresh_token")) counter.refreshes++
    return fetch(input, init)
  }
  return counter
}

function localProvider(server: OidcProviderServer, fetchImpl: typeof fetch, extra = {}) {
  return {
    ...localOidcProvider(server, "local"),
    // oidc-provider, like Google, issues refresh tokens for offline_access with prompt=consent.
    authorization: { params: { scope: "openid profile email offline_access", prompt: "consent" } },
    [customFetch]: fetchImpl,
    ...extra,
  }
}

async function signInAtIdp(config: AuthConfig, accountId = "ada") {
  const browser = new Browser(config)
  const start = await browser.startSignIn("local")
  const back = await completeOidcLogin(start.headers.get("location")!, { accountId })
  const done = await browser.request(back.url.pathname + back.url.search)
  expect(done.status).toBe(302)
  return browser
}

/**
 * `adapter` as an Auth.js adapter is (no refresh lease), in a new object: an app that builds its
 * configuration per request builds its adapter there too (`D1Adapter(c.env.DB)`).
 */
function withoutLease(adapter: Adapter): Adapter {
  return new Proxy(adapter, {
    get(target, key) {
      if (key === "leaseAccountRefresh") return undefined
      const value: unknown = Reflect.get(target, key)
      return typeof value === "function" ? value.bind(target) : value
    },
  })
}

/** The access token works at the provider's userinfo endpoint. */
async function works(server: OidcProviderServer, accessToken: string): Promise<boolean> {
  const response = await fetch(`${server.issuer}/me`, {
    headers: { authorization: `Bearer ${accessToken}` },
  })
  return response.status === 200
}

describe.each([
  ["memory", async () => memoryBackend()],
  ["sqlite", sqliteBackend],
  ["postgres", () => postgres.backend()],
] as const)("getAccessToken on %s", (name, makeBackend) => {
  let backend: Backend
  let counter: ReturnType<typeof refreshCounter>
  let config: AuthConfig
  let userId: string
  beforeEach(async () => {
    backend = await makeBackend()
    counter = refreshCounter()
    config = {
      secret: SECRET,
      trustHost: true,
      adapter: backend.adapter,
      logger: recordingLogger().logger,
      providers: [localProvider(idp, counter.fetch)],
    }
    await signInAtIdp(config)
    userId = (await backend.users())[0]!.id
  })
  afterEach(async () => {
    await backend.close()
  })

  const stored = async () =>
    (await backend.adapter.listAccountsByUserId!(userId)).find((a) => a.provider === "local")!

  /** Makes the stored access token look as if it expires in 30 s. */
  async function expireSoon(adapter: Adapter = backend.adapter) {
    const { providerAccountId } = await stored()
    await adapter.updateAccount!({
      provider: "local",
      providerAccountId,
      expires_at: Math.floor(Date.now() / 1000) + 30,
    })
  }

  test("a fresh token is returned as stored, with no request to the provider", async () => {
    const account = await stored()
    expect(account.refresh_token).toEqual(expect.any(String))
    const token = await getAccessToken(config, { userId, provider: "local" })
    expect(token).toEqual({
      accessToken: account.access_token,
      expiresAt: account.expires_at,
      scope: expect.stringContaining("offline_access"),
    })
    expect(counter.refreshes).toBe(0)
    expect(await works(idp, token.accessToken)).toBe(true)
  })

  test("an expiring token is refreshed; the rotated tokens are stored", async () => {
    const before = await stored()
    await expireSoon()
    const token = await getAccessToken(config, { userId, provider: "local" })
    expect(counter.refreshes).toBe(1)
    expect(token.accessToken).not.toBe(before.access_token)
    expect(token.expiresAt! - Date.now() / 1000).toBeGreaterThan(3000)
    const after = await stored()
    expect(after.access_token).toBe(token.accessToken)
    expect(after.refresh_token).toEqual(expect.any(String))
    expect(after.refresh_token).not.toBe(before.refresh_token)
    expect(after.expires_at).toBe(token.expiresAt)
    expect(await works(idp, token.accessToken)).toBe(true)
    // Fresh now: no second request.
    expect((await getAccessToken(config, { userId, provider: "local" })).accessToken).toBe(
      token.accessToken,
    )
    expect(counter.refreshes).toBe(1)
  })

  test("20 concurrent calls make one refresh request and get the same token", async () => {
    await expireSoon()
    const tokens = await Promise.all(
      Array.from({ length: 20 }, () => getAccessToken(config, { userId, provider: "local" })),
    )
    expect(counter.refreshes).toBe(1)
    expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1)
    expect(await works(idp, tokens[0]!.accessToken)).toBe(true)
  })

  // A new configuration object per request (and a new adapter object, with no lease to fall back
  // on): the single flight is the process's, not the object's, or the second refresh spends the
  // rotated refresh token again, the provider refuses it and the account's tokens are cleared.
  test("20 concurrent calls through two configuration objects make one refresh request", async () => {
    const perRequest = (): AuthConfig => ({ ...config, adapter: withoutLease(backend.adapter) })
    const objects = [perRequest(), perRequest()]
    await expireSoon()
    const tokens = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        getAccessToken(objects[i % 2]!, { userId, provider: "local" }),
      ),
    )
    expect(counter.refreshes).toBe(1)
    expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1)
    expect(await works(idp, tokens[0]!.accessToken)).toBe(true)
    expect((await stored()).access_token).toBe(tokens[0]!.accessToken)
  })

  test("a refused refresh (invalid_grant) clears the stored tokens and throws RefreshTokenError; signing in again restores them", async () => {
    const first = await stored()
    await expireSoon()
    await getAccessToken(config, { userId, provider: "local" })
    // The spent refresh token comes back (a restored backup, a second copy): the provider
    // refuses it (and, as rotation requires, revokes the grant).
    await backend.adapter.updateAccount!({
      provider: "local",
      providerAccountId: first.providerAccountId,
      refresh_token: first.refresh_token!,
      expires_at: 0,
    })
    const error = (await getAccessToken(config, { userId, provider: "local" }).catch(
      (e: unknown) => e,
    )) as RefreshTokenError
    expect(error).toMatchObject({ type: "RefreshTokenError", code: "invalid_grant" })
    expect(error.message).not.toContain(first.refresh_token!)
    const cleared = await stored()
    expect(cleared.access_token ?? null).toBeNull()
    expect(cleared.refresh_token ?? null).toBeNull()
    // No token left to try: the same error, without asking the provider again.
    const refreshes = counter.refreshes
    await expect(getAccessToken(config, { userId, provider: "local" })).rejects.toMatchObject({
      type: "RefreshTokenError",
      code: "no_refresh_token",
    })
    expect(counter.refreshes).toBe(refreshes)
    // Re-consent: a new sign-in stores new tokens on the linked account.
    await signInAtIdp(config)
    const token = await getAccessToken(config, { userId, provider: "local" })
    expect(await works(idp, token.accessToken)).toBe(true)
  })

  test("tokenRefresh: false returns the stored token as it is", async () => {
    const off: AuthConfig = {
      ...config,
      providers: [localProvider(idp, counter.fetch, { tokenRefresh: false })],
    }
    await expireSoon()
    const token = await getAccessToken(off, { userId, provider: "local" })
    expect(token.accessToken).toBe((await stored()).access_token)
    expect(counter.refreshes).toBe(0)
  })

  test("no account at the provider: RefreshTokenError no_account; an unknown provider: a configuration error", async () => {
    await expect(
      getAccessToken(config, { userId: "nobody", provider: "local" }),
    ).rejects.toMatchObject({ type: "RefreshTokenError", code: "no_account" })
    await expect(getAccessToken(config, { userId, provider: "github" })).rejects.toMatchObject({
      type: "InvalidConfiguration",
    })
  })

  // Two processes need a database both can reach: the SQL backends only.
  if (name !== "memory") {
    test("two processes (two adapters on one database) refresh once between them", async () => {
      // A second instance of core's modules: a process of its own, whose single flight is not
      // this one's, so only the adapters' refresh lease keeps the refresh to one.
      vi.resetModules()
      const otherProcess = (await import("@tessera/core")).getAccessToken
      expect(otherProcess).not.toBe(getAccessToken)
      const second =
        name === "sqlite"
          ? SqlAdapter.sqlite((backend as Backend & { path: string }).path)
          : SqlAdapter.postgres({
              connectionString: postgres.url,
              options: `-c search_path=${(backend as Backend & { schema: string }).schema}`,
            })
      try {
        const other: AuthConfig = {
          ...config,
          adapter: second,
          providers: [localProvider(idp, counter.fetch)],
        }
        await expireSoon()
        const tokens = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            i % 2
              ? otherProcess(other, { userId, provider: "local" })
              : getAccessToken(config, { userId, provider: "local" }),
          ),
        )
        expect(counter.refreshes).toBe(1)
        expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1)
        expect(await works(idp, tokens[0]!.accessToken)).toBe(true)
      } finally {
        await second.close()
      }
    })
  }
})

describe("refreshTokenSet: tokens kept in the JWT (no adapter)", () => {
  test("the jwt callback recipe: rotation, one refresh for 20 parallel requests, RefreshTokenError", async () => {
    const counter = refreshCounter()
    const errors: unknown[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: recordingLogger().logger,
      providers: [localProvider(shortLived, counter.fetch)],
      callbacks: {
        async jwt({ token, account }) {
          if (account) {
            return {
              ...token,
              access_token: account.access_token,
              refresh_token: account.refresh_token,
              expires_at: account.expires_at,
            }
          }
          try {
            const tokens = await refreshTokenSet(config, { provider: "local", tokens: token })
            return { ...token, ...tokens }
          } catch (error) {
            errors.push(error)
            return { ...token, error: "RefreshTokenError" }
          }
        },
        session: ({ session, token }) => ({
          ...session,
          accessToken: token.access_token,
          error: token.error,
        }),
      },
    }
    const browser = await signInAtIdp(config)
    const cookie = browser.jar.header()
    const first = (await browser.session()) as { accessToken: string }
    expect(counter.refreshes).toBe(1)
    expect(await works(shortLived, first.accessToken)).toBe(true)

    // 20 requests of one page, all with the cookie from before that refresh.
    const { Auth } = await import("@tessera/core")
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await Auth(
          new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }),
          config,
        )
        return (await response.json()) as { accessToken: string; error?: string }
      }),
    )
    // They share the refresh that already happened: no request, no spent token reused.
    expect(counter.refreshes).toBe(1)
    expect(answers.every((a) => a.accessToken === first.accessToken && !a.error)).toBe(true)

    // A token set whose refresh token the provider refuses.
    await expect(
      refreshTokenSet(config, {
        provider: "local",
        tokens: { access_token: "x", refresh_token: "not-a-refresh-token", expires_at: 0 },
      }),
    ).rejects.toMatchObject({ type: "RefreshTokenError", code: "invalid_grant" })
    // A fresh one is returned as it is; of a whole JWT, only its token fields.
    const fresh = { access_token: "a", refresh_token: "r", expires_at: Date.now() / 1000 + 600 }
    expect(await refreshTokenSet(config, { provider: "local", tokens: fresh })).toEqual(fresh)
    const jwt = { ...fresh, sub: "user-1", name: "Ada", scope: 42 }
    expect(await refreshTokenSet(config, { provider: "local", tokens: jwt })).toEqual(fresh)
    expect(errors).toEqual([])
  })

  // `initAuthConfig((c) => ({ ... }))` in @hono/auth-js's style, or a lazy SvelteKit
  // configuration, gives each request a new object: the single flight is the process's, so
  // they share one refresh rather than each spending the rotating refresh token.
  test("one refresh request for concurrent calls with one configuration object, and with equal new objects", async () => {
    const counter = refreshCounter()
    let tokens: Record<string, unknown> = {}
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: recordingLogger().logger,
      providers: [localProvider(shortLived, counter.fetch)],
      callbacks: {
        jwt({ token, account }) {
          if (account) {
            const { access_token, refresh_token, expires_at } = account
            tokens = { access_token, refresh_token, expires_at }
          }
          return token
        },
      },
    }
    await signInAtIdp(config)
    const refresh = (each: AuthConfig, set: Record<string, unknown>) =>
      refreshTokenSet(each, { provider: "local", tokens: set })

    await Promise.all([refresh(config, tokens), refresh(config, tokens)])
    expect(counter.refreshes).toBe(1)

    const rotated = await refresh(config, tokens)
    const before = counter.refreshes
    const again = await Promise.all(
      Array.from({ length: 20 }, () => refresh({ ...config }, rotated)),
    )
    expect(counter.refreshes - before).toBe(1)
    expect(new Set(again.map((set) => set.access_token)).size).toBe(1)
    expect(new Set(again.map((set) => set.refresh_token)).size).toBe(1)
    expect(await works(shortLived, again[0]!.access_token!)).toBe(true)
  })
})
