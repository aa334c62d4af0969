/**
 * The provider's profile of the user, and the User and Account made from it.
 *
 * OIDC providers: the validated ID Token claims (or, with `idToken: false`,
 * the userinfo response, whose `sub` must match the ID Token's). OAuth 2
 * providers: the userinfo endpoint's JSON, or the provider's own
 * `userinfo.request`.
 * @module
 */
import * as o from "oauth4webapi"
import { OAuthProfileParseError, OAuthProviderError } from "../../errors.js"
import type { Account, Profile, TokenSet, User } from "../../types.js"
import type { OAuthClient } from "./client.js"
import { malformedTokenField } from "../../lib/control-characters.js"
import { storedEmailAddress } from "../email/address.js"
import { httpOptions, providerFetch } from "./http.js"
import { accountKey } from "./provider-options.js"
import { verifyJwtResponseSignature } from "./tokens.js"
import type { ResolvedOAuthProvider } from "../types.js"

type Provider = ResolvedOAuthProvider

export interface ProfileRequest {
  provider: Provider
  as: o.AuthorizationServer
  oauth: OAuthClient
  tokens: TokenSet
  claims: Profile | undefined
  params: URLSearchParams
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

export async function fetchProfile(request: ProfileRequest): Promise<Profile> {
  const { provider, as, oauth, tokens, claims } = request
  if (provider.type === "oidc" && provider.idToken !== false) return claims!

  const custom = provider.userinfo?.request
  if (custom) {
    const profile = await custom({
      tokens,
      provider,
      params: Object.fromEntries(request.params),
      claims,
      fetch: providerFetch(provider),
    })
    if (!isObject(profile))
      throw new OAuthProfileParseError(
        `Provider "${provider.id}": userinfo.request returned no profile object`,
      )
    return profile
  }
  if (!as.userinfo_endpoint) {
    // An OAuth 2 provider that sent an ID Token but has no userinfo endpoint.
    if (claims) return claims
    throw new OAuthProviderError(
      `Provider "${provider.id}" has no userinfo endpoint to read the profile from`,
    )
  }
  if (typeof tokens.access_token !== "string")
    throw new OAuthProviderError(
      `Provider "${provider.id}": no access token to read the profile with`,
    )
  const url = new URL(as.userinfo_endpoint)
  for (const [key, value] of Object.entries(provider.userinfo?.params ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value))
  }
  let response = await o.userInfoRequest(
    { ...as, userinfo_endpoint: url.href },
    oauth.client,
    tokens.access_token,
    httpOptions(provider),
  )
  const conform = provider.userinfo?.conform
  if (conform) response = (await conform(response.clone())) ?? response

  if (provider.type === "oidc") {
    const mediaType = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase()
    const jwt = mediaType === "application/jwt" ? await response.clone().text() : undefined
    // The userinfo must describe the user the ID Token names (OIDC Core 5.3.2).
    const userinfo = await o.processUserInfoResponse(
      as,
      oauth.client,
      String(claims!.sub),
      response,
    )
    // A signed response (`userinfo_signed_response_alg`) is trusted for its
    // signature, as an ID Token is: oauth4webapi checks its claims, not the signature.
    if (jwt !== undefined)
      await verifyJwtResponseSignature(
        provider,
        as,
        response,
        jwt.trim(),
        "userinfo response",
        provider.client?.userinfo_signed_response_alg,
      )
    return userinfo
  }
  if (response.status !== 200)
    throw new OAuthProviderError(
      `Provider "${provider.id}": the userinfo endpoint answered ${response.status}`,
    )
  let body: unknown
  try {
    body = await response.json()
  } catch {
    throw new OAuthProfileParseError(`Provider "${provider.id}": the userinfo response is not JSON`)
  }
  if (!isObject(body))
    throw new OAuthProfileParseError(
      `Provider "${provider.id}": the userinfo response is not an object`,
    )
  return body
}

/**
 * Runs the provider's `profile` and `account` callbacks. The Account's
 * `providerAccountId` is the profile's id as a string (the provider's own
 * identifier when the callback leaves it out); the user's id is a new UUID. Two accounts come out, as in
 * Auth.js: `account`, for the `signIn` and `jwt` callbacks and the `signIn`
 * event, holds the whole token response (`expires_in` and a provider's own
 * fields too: apps compute `Date.now() + account.expires_in * 1000`); `stored`,
 * for the adapter and the `linkAccount` event, holds what `account(tokens)`
 * returns (the default keeps the usual columns).
 */
export async function toUserAndAccount(
  provider: Provider,
  profile: Profile,
  tokens: TokenSet,
): Promise<{ user: User; account: Account; stored: Account }> {
  let user: User
  try {
    user = await provider.profile(profile, tokens)
  } catch (error) {
    throw new OAuthProfileParseError(`Provider "${provider.id}": the profile callback threw`, {
      cause: { err: error },
    })
  }
  if (!isObject(user))
    throw new OAuthProfileParseError(
      `Provider "${provider.id}": the profile callback returned no user`,
    )
  // A `profile` callback that maps without an `id` (Auth.js's own RBAC guide returns
  // `{ role, ...profile }`) keys the account by the provider's identifier, the one the
  // default callbacks use: the ID Token's `sub` (OIDC), the userinfo `id` or `sub` (OAuth 2).
  // A hostile id the callback passed on (a NUL, 2^53 + 1) is refused, not replaced by the fallback.
  const id =
    user.id === undefined || user.id === null || user.id === ""
      ? accountKey(provider.type === "oidc" ? profile.sub : (profile.id ?? profile.sub))
      : accountKey(user.id)
  // accountKey refuses control characters too (U+0000 would fail the database's insert).
  if (id === "")
    throw new OAuthProfileParseError(`Provider "${provider.id}": the profile has no usable id`)

  const keys = { provider: provider.id, type: provider.type, providerAccountId: id }
  const stored: Account = { ...(provider.account(tokens) ?? {}), ...keys }
  // What is stored (`stored`), and what a later sign-in stores over it (`tokens`, persist.ts).
  const malformed = malformedTokenField(stored) ?? malformedTokenField(tokens, false)
  if (malformed)
    throw new OAuthProviderError(
      `Provider "${provider.id}": the token response's ${malformed} has a control character`,
    )
  const account: Account = { ...tokens, ...keys }
  for (const each of [stored, account]) {
    if (typeof each.token_type === "string")
      each.token_type = each.token_type.toLowerCase() as Lowercase<string>
  }
  // The user's id is never the provider's: ids are unique only within a provider (GitHub's
  // user 7 and GitLab's user 7 are two people), so as in Auth.js a user without a stored one
  // (no adapter) gets an id of its own; the provider's is the account's `providerAccountId`.
  return { user: { ...user, id: crypto.randomUUID() }, account, stored }
}

/**
 * The user's e-mail address as Tessera keeps it (normalised exactly like an
 * e-mail sign-in address, or `null`), and whether the provider vouches for it:
 * its `verifiedEmail` must name the same address. A provider's quirks (which
 * claim says so) live in its module; a throwing `verifiedEmail` vouches for nothing.
 */
export function emailOf(
  provider: Provider,
  user: User,
  profile: Profile,
  tokens: TokenSet,
): { email: string | null; verified: boolean } {
  const email = storedEmailAddress(user.email)
  if (email === null) return { email, verified: false }
  let vouched: unknown
  try {
    vouched = provider.verifiedEmail?.(profile, tokens)
  } catch {
    vouched = null
  }
  return { email, verified: storedEmailAddress(vouched) === email }
}
