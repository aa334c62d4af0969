/**
 * Provider access tokens that stay fresh: `getAccessToken` for tokens stored
 * on the user's linked account (an adapter), `refreshTokenSet` for tokens an
 * app keeps in its JWT (the `jwt` callback recipe in the README).
 *
 * A token that expires within 60 s is refreshed with the refresh token
 * (`flows/oauth/refresh.ts`). Concurrent calls for one account make one
 * refresh request: per process by single flight (the process's, whichever
 * configuration object each call got: an app may build one per request), and
 * across processes by the adapter's refresh lease (one
 * `UPDATE` that only one process wins; the others wait for its result), so a
 * rotating refresh token is spent once. A refused refresh clears the stored
 * tokens and throws `RefreshTokenError` (`code: "invalid_grant"`): ask the
 * user to sign in with the provider again. A refresh writes its outcome only
 * while the account still holds the refresh token it spent and the access
 * token it set out from (the adapter's compare-and-set: a sign-in may keep the
 * refresh token, never the access token), so tokens a sign-in stored
 * meanwhile stay, and serve.
 * @module
 */
import type { AdapterAccount } from "../adapters.js"
import type { AuthConfig } from "../config/auth-config.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { resolvedOrThrow } from "../config/resolved.js"
import {
  InvalidConfiguration,
  MissingAdapter,
  MissingAdapterMethods,
  OAuthProviderError,
  RefreshTokenError,
} from "../errors.js"
import { lazy } from "../flows/lazy.js"
import type { RefreshedTokens } from "../flows/oauth/refresh.js"
import type { ResolvedOAuthProvider } from "../flows/types.js"
import { callAdapter } from "../lib/adapter.js"
import { randomHex, sha256Hex } from "../lib/crypto.js"
import { singleFlight } from "../lib/single-flight.js"
import type { JWT } from "../jwt.js"

/**
 * The refresh itself (oauth4webapi and the OAuth modules), loaded with the
 * first refresh: `@tessera/core` exports this module, and importing the core
 * must not load them.
 */
const refresh = lazy(() => import("../flows/oauth/refresh.js"))

const refreshTokens = async (
  config: ResolvedConfig,
  provider: ResolvedOAuthProvider,
  refreshToken: string,
  originalIdToken?: string | null,
) => (await refresh()).refreshTokens(config, provider, refreshToken, originalIdToken)

/** True unless the provider opted out of refreshing (`tokenRefresh: false`). */
function refreshes(provider: ResolvedOAuthProvider): boolean {
  return provider.tokenRefresh !== false
}

/**
 * Token refreshes in flight (and a JWT refresh's result, `JWT_RESULT_KEPT_MS` after), by the
 * provider's id, the account and a hash of the refresh token they spend: one refresh per refresh
 * token in this process, whichever configuration object each call came with. Not the resolved
 * configuration's: `initAuthConfig((c) => ({ ... }))`, SvelteKit's lazy form or an Express
 * middleware make a new object (often a new adapter object too) per request, and two objects'
 * refreshes would spend a rotating refresh token twice (the provider refuses the second,
 * `invalid_grant`, and the account's tokens are cleared). A hash, never the raw token, as a key:
 * entries outlive their flight. Bounded by the refreshes under way (and those of the last 30 s).
 */
const refreshesInFlight = new Map<string, Promise<unknown>>()

/** The single flight's key for spending `refreshToken` at `provider` (for `account`, if stored). */
async function flightKey(
  provider: ResolvedOAuthProvider,
  refreshToken: string,
  account?: string,
): Promise<string> {
  const spent = await sha256Hex(refreshToken)
  return account === undefined
    ? `jwt\0${provider.id}\0${spent}`
    : `account\0${provider.id}\0${account}\0${spent}`
}

/** Seconds before its expiry when a token counts as expired already. */
const EXPIRY_MARGIN = 60
/** How long a refresh lease holds an account (ms): longer than any refresh should take. */
const LEASE_MS = 30_000
/** How often a process that found the lease taken looks for the result (ms). */
const POLL_MS = 100
/** How long a JWT refresh's result serves requests still carrying the old refresh token (ms). */
const JWT_RESULT_KEPT_MS = 30_000

/**
 * What `getAccessToken` returns: a usable access token, when it expires
 * (seconds since the epoch; `null` when the provider did not say) and its scope.
 *
 * @see [RFC 6749 §5.1, Successful Response](https://www.rfc-editor.org/rfc/rfc6749.html#section-5.1)
 */
export interface AccessToken {
  accessToken: string
  expiresAt: number | null
  scope: string | null
}

/**
 * The tokens an app keeps in its JWT for `refreshTokenSet`: the fields of an
 * `Account` at sign-in.
 *
 * @see {@link refreshTokenSet}
 */
export interface JWTTokenSet {
  access_token?: string
  refresh_token?: string
  /** Seconds since the epoch. */
  expires_at?: number
  scope?: string
}

const nowSeconds = () => Math.floor(Date.now() / 1000)

function fresh(tokens: { access_token?: string | null; expires_at?: number | null }): boolean {
  if (!tokens.access_token) return false
  return typeof tokens.expires_at !== "number" || tokens.expires_at - nowSeconds() > EXPIRY_MARGIN
}

/**
 * True when `account` holds an unexpired token that is not the `stale` one this call set out to
 * replace: another process refreshed it meanwhile. Its result is taken even when it is within the
 * 60 s margin (a provider whose tokens live less than that): refreshing again would rotate the
 * refresh token a second time for one round of concurrent calls.
 */
function refreshedSince(
  account: { access_token?: string | null; expires_at?: number | null },
  stale: string | null,
): boolean {
  if (!account.access_token || account.access_token === stale) return false
  return typeof account.expires_at !== "number" || account.expires_at > nowSeconds()
}

function refusal(code: RefreshTokenError["code"], message: string): RefreshTokenError {
  const error = new RefreshTokenError(message)
  error.code = code
  return error
}

function oauthProvider(config: ResolvedConfig, id: string): ResolvedOAuthProvider {
  const provider = config.flows.get(id)?.provider
  if (!provider || (provider.type !== "oauth" && provider.type !== "oidc")) {
    throw new InvalidConfiguration(`No OAuth or OpenID Connect provider "${id}" is configured`)
  }
  return provider
}

function accessTokenOf(account: {
  access_token?: string | null
  expires_at?: number | null
  scope?: string | null
}): AccessToken {
  if (!account.access_token) {
    throw refusal("no_refresh_token", "The account has no access token: sign in again")
  }
  return {
    accessToken: account.access_token,
    expiresAt: typeof account.expires_at === "number" ? account.expires_at : null,
    scope: account.scope ?? null,
  }
}

/**
 * The user's access token at `provider`, refreshed first (and the rotated
 * tokens stored) when it expires within 60 seconds.
 *
 * @param config The same configuration object `Auth()` gets; its adapter needs
 *   `listAccountsByUserId` and `updateAccount` (and `leaseAccountRefresh`, to
 *   guard refreshes across processes).
 * @param params `userId` and the `provider` id of the linked account.
 * @returns The token, its expiry (seconds) and scope.
 * @throws `RefreshTokenError` when there is no usable token: the provider refused
 *   the refresh token (the stored tokens are cleared), or there is none.
 * @example
 * ```ts
 * const { accessToken } = await getAccessToken(authConfig, { userId, provider: "google" })
 * await fetch("https://www.googleapis.com/calendar/v3/users/me/calendarList", {
 *   headers: { authorization: `Bearer ${accessToken}` },
 * })
 * ```
 * @see [RFC 6749 §6, Refreshing an Access Token](https://www.rfc-editor.org/rfc/rfc6749.html#section-6)
 * @see [RFC 9700 §4.14.2, Refresh Token Rotation](https://www.rfc-editor.org/rfc/rfc9700.html#section-4.14.2)
 */
export async function getAccessToken(
  config: AuthConfig,
  params: { userId: string; provider: string },
): Promise<AccessToken> {
  const resolvedConfig = await resolvedOrThrow(config)
  const provider = oauthProvider(resolvedConfig, params.provider)
  const { adapter } = resolvedConfig
  if (!adapter) throw new MissingAdapter("getAccessToken needs a database adapter")
  const missing = (["listAccountsByUserId", "updateAccount"] as const).filter(
    (method) => typeof adapter[method] !== "function",
  )
  if (missing.length) {
    throw new MissingAdapterMethods(
      `getAccessToken needs the adapter methods ${missing.join(", ")}`,
    )
  }
  const accounts = await callAdapter(resolvedConfig, "listAccountsByUserId", params.userId)
  const account = accounts.find((a) => a.provider === provider.id)
  if (!account) {
    throw refusal("no_account", `The user has no account at provider "${provider.id}"`)
  }
  if (fresh(account) || !refreshes(provider)) return accessTokenOf(account)
  // No refresh token: nothing to spend, so no flight to share; its key (the hash of nothing)
  // would be every app's in the process with this provider id and account id (red team 23).
  if (!account.refresh_token) return refreshStored(resolvedConfig, provider, account)
  const key = await flightKey(provider, account.refresh_token, account.providerAccountId)
  return singleFlight(refreshesInFlight, key, () =>
    refreshStored(resolvedConfig, provider, account),
  )
}

/** Refreshes the stored account's tokens, under the refresh lease when the adapter has one. */
async function refreshStored(
  config: ResolvedConfig,
  provider: ResolvedOAuthProvider,
  account: AdapterAccount,
): Promise<AccessToken> {
  const ids = { provider: provider.id, providerAccountId: account.providerAccountId }
  const leaseId = config.adapter?.leaseAccountRefresh ? randomHex(16) : undefined
  const stale = account.access_token ?? null
  let current = account
  if (leaseId) {
    const leased = await lease(config, ids, leaseId, stale)
    // Another process refreshed it meanwhile: its result is stored.
    if (leased.kind === "refreshed") return leased.token
    current = leased.account
  }
  let released = false
  const spent = current.refresh_token ?? null
  /**
   * Writes the refresh's outcome only while the account still holds the refresh token it spent
   * and the access token it started from (a compare-and-set): a sign-in that stored a new
   * grant's tokens meanwhile keeps them, even one whose provider sent no new refresh token.
   * Returns the account as that sign-in left it, if one did.
   */
  const from = { refresh_token: spent, access_token: current.access_token ?? null }
  const store = async (tokens: Parameters<typeof storeTokens>[2]) => {
    released = true
    const expected = spent === null ? undefined : { ...from, refresh_token: spent }
    const stored = await storeTokens(config, ids, tokens, leaseId, expected)
    return stored ? undefined : notStored(config, ids, from, leaseId)
  }
  try {
    // Someone refreshed between our read and our lease.
    if (fresh(current) || refreshedSince(current, stale)) return accessTokenOf(current)
    if (!spent) {
      throw refusal("no_refresh_token", "The account has no refresh token: sign in again")
    }
    let tokens: RefreshedTokens
    try {
      // A refreshed ID Token must name the user the stored one names.
      tokens = await refreshTokens(config, provider, spent, current.id_token)
    } catch (error) {
      if (error instanceof RefreshTokenError) {
        // Refused for good: these tokens will never work again; forget them (not newer ones).
        const replaced = await store({ access_token: null, refresh_token: null, expires_at: null })
        // A sign-in stored new tokens meanwhile: they are the answer.
        if (replaced && (fresh(replaced) || refreshedSince(replaced, stale)))
          return accessTokenOf(replaced)
      }
      throw error
    }
    await store({
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      expires_at: tokens.expires_at,
      ...(tokens.scope ? { scope: tokens.scope } : {}),
      ...(tokens.token_type ? { token_type: tokens.token_type } : {}),
      ...(tokens.id_token ? { id_token: tokens.id_token } : {}),
    })
    // Stored or not (`notStored`), the new access token is good.
    return accessTokenOf({ ...tokens, scope: tokens.scope ?? current.scope ?? null })
  } finally {
    if (leaseId && !released) await storeTokens(config, ids, {}, leaseId).catch(() => null)
  }
}

/**
 * Takes the refresh lease, or waits until its holder stored a token other than the `stale` one
 * (then returns that).
 */
async function lease(
  config: ResolvedConfig,
  ids: { provider: string; providerAccountId: string },
  leaseId: string,
  stale: string | null,
): Promise<
  { kind: "leased"; account: AdapterAccount } | { kind: "refreshed"; token: AccessToken }
> {
  const start = Date.now()
  for (;;) {
    const until = new Date(Date.now() + LEASE_MS)
    const leased = await callAdapter(config, "leaseAccountRefresh", { ...ids, leaseId, until })
    if (leased) return { kind: "leased", account: leased }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const again = await callAdapter(config, "getAccount", ids.providerAccountId, ids.provider)
    if (!again) throw refusal("no_account", "The account was unlinked")
    if (fresh(again) || refreshedSince(again, stale)) {
      return { kind: "refreshed", token: accessTokenOf(again) }
    }
    if (Date.now() - start > 2 * LEASE_MS) {
      throw new OAuthProviderError(`Provider "${ids.provider}": another token refresh never ended`)
    }
  }
}

async function storeTokens(
  config: ResolvedConfig,
  ids: { provider: string; providerAccountId: string },
  tokens: {
    access_token?: string | null
    refresh_token?: string | null
    expires_at?: number | null
    scope?: string
    token_type?: string
    id_token?: string
  },
  leaseId: string | undefined,
  expected?: { refresh_token: string; access_token: string | null },
): Promise<AdapterAccount | null> {
  return (
    (await callAdapter(config, "updateAccount", { ...ids, ...tokens }, leaseId, expected)) ?? null
  )
}

/**
 * A refresh's write found the account changed: a sign-in stored a new grant's tokens meanwhile
 * (they stay; the lease is released), or the lease ran out and another process took over.
 */
async function notStored(
  config: ResolvedConfig,
  ids: { provider: string; providerAccountId: string },
  from: { refresh_token: string | null; access_token: string | null },
  leaseId: string | undefined,
): Promise<AdapterAccount | undefined> {
  const account = config.adapter?.getAccount
    ? await callAdapter(config, "getAccount", ids.providerAccountId, ids.provider)
    : undefined
  const replaced =
    account &&
    ((account.refresh_token ?? null) !== from.refresh_token ||
      (account.access_token ?? null) !== from.access_token)
  if (account && replaced) {
    config.logger.debug("token refresh: the account's tokens were replaced meanwhile; kept", {
      provider: ids.provider,
    })
    // Still ours when a sign-in replaced the tokens: released, or the next refresh waits it out.
    if (leaseId) await storeTokens(config, ids, {}, leaseId).catch(() => null)
    return account
  }
  // Our lease ran out and another process took over: our tokens are still good.
  config.logger.error(
    new OAuthProviderError(
      `Provider "${ids.provider}": a token refresh outlived its lease; its tokens were not stored`,
    ),
  )
  return undefined
}

/**
 * For tokens kept in the JWT (no adapter): returns `tokens` as they are while
 * the access token is good for more than 60 seconds, else the refreshed ones
 * (a new `refresh_token` when the provider rotates them) for the `jwt` callback
 * to store. Concurrent calls with one refresh token make one refresh request,
 * and for 30 seconds after it a call with that (now replaced) refresh token
 * gets the same result: a browser's parallel requests share one rotation.
 *
 * @param config The same configuration object `Auth()` gets.
 * @param params The `provider` id and the `tokens` the JWT holds (the token itself will do: only
 *   `access_token`, `refresh_token`, `expires_at` and `scope` are read).
 * @throws `RefreshTokenError` when the provider refused the refresh token, or there is none.
 * @example
 * ```ts
 * callbacks: {
 *   async jwt({ token, account }) {
 *     if (account) return { ...token, access_token: account.access_token, refresh_token: account.refresh_token, expires_at: account.expires_at }
 *     try {
 *       return { ...token, ...(await refreshTokenSet(authConfig, { provider: "google", tokens: token })), error: undefined }
 *     } catch (error) {
 *       return { ...token, error: "RefreshTokenError" }
 *     }
 *   },
 * }
 * ```
 * @see [RFC 6749 §6, Refreshing an Access Token](https://www.rfc-editor.org/rfc/rfc6749.html#section-6)
 */
export async function refreshTokenSet(
  config: AuthConfig,
  params: { provider: string; tokens: JWTTokenSet | JWT },
): Promise<JWTTokenSet> {
  const resolvedConfig = await resolvedOrThrow(config)
  const provider = oauthProvider(resolvedConfig, params.provider)
  const given = params.tokens
  // A JWT's claims are whatever the app stored: only well-typed fields count.
  const tokens: JWTTokenSet = {
    ...(typeof given.access_token === "string" ? { access_token: given.access_token } : {}),
    ...(typeof given.refresh_token === "string" ? { refresh_token: given.refresh_token } : {}),
    ...(typeof given.expires_at === "number" ? { expires_at: given.expires_at } : {}),
    ...(typeof given.scope === "string" ? { scope: given.scope } : {}),
  }
  if (fresh(tokens) || !refreshes(provider)) return tokens
  const refreshToken = tokens.refresh_token
  if (typeof refreshToken !== "string" || !refreshToken) {
    throw refusal("no_refresh_token", "The token set has no refresh token: sign in again")
  }
  const key = await flightKey(provider, refreshToken)
  const refreshed = await singleFlight(
    refreshesInFlight,
    key,
    () => refreshTokens(resolvedConfig, provider, refreshToken),
    JWT_RESULT_KEPT_MS,
  )
  return {
    access_token: refreshed.access_token,
    refresh_token: refreshed.refresh_token,
    ...(refreshed.expires_at !== null ? { expires_at: refreshed.expires_at } : {}),
    ...(refreshed.scope ? { scope: refreshed.scope } : tokens.scope ? { scope: tokens.scope } : {}),
  }
}
