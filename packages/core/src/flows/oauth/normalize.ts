/**
 * Resolution of `oauth`/`oidc` providers: endpoint strings become endpoint
 * objects, checks and the default `profile`/`account` callbacks are filled in,
 * and configurations that cannot work are rejected at start, not on a user's
 * first sign-in: unparsable URLs, `http:` URLs without the explicit opt-in,
 * unknown checks, an OIDC provider with no issuer.
 * @module
 */
import { InvalidConfiguration, InvalidEndpoints } from "../../errors.js"
import { emailIfVerified } from "../../providers/oauth.js"
import type {
  EndpointHandler,
  OAuthChecks,
  OAuthConfig,
  OAuthConfigInternal,
} from "../../providers/oauth.js"
import type { Profile, TokenSet, User } from "../../types.js"
import type { ProviderResolutionContext, ResolvedOAuthProvider } from "../types.js"

const KNOWN_CHECKS = new Set(["pkce", "state", "nonce", "none"])
const ACCOUNT_FIELDS = [
  "access_token",
  "id_token",
  "refresh_token",
  "expires_at",
  "scope",
  "token_type",
  "session_state",
]

/** Keeps id, name, email and image (picture), as Auth.js does. */
export function defaultProfile(profile: Profile): User {
  return {
    id: String(profile.sub ?? profile.id ?? ""),
    name: profile.name ?? profile.nickname ?? profile.preferred_username ?? null,
    email: profile.email ?? null,
    image: (profile.picture ?? null) as string | null,
  }
}

/** Plain OAuth 2 gives no standard way to tell whether an address is verified. */
const noVerifiedEmail = () => null

/** Keeps the token fields an Account stores. */
export function defaultAccount(tokens: TokenSet): TokenSet {
  const account: TokenSet = {}
  for (const key of ACCOUNT_FIELDS) if (tokens[key] !== undefined) account[key] = tokens[key]
  return account
}

function toEndpoint(
  value: unknown,
  label: string,
  providerId: string,
): EndpointHandler<any> | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === "string") return { url: value }
  if (typeof value === "object") return { ...(value as EndpointHandler<any>) }
  throw new InvalidEndpoints(
    `Provider "${providerId}": \`${label}\` must be a URL or an endpoint object`,
  )
}

/**
 * Every URL Tessera fetches or sends the browser to must parse and, unless the
 * provider opts in, be https: an http issuer lets anyone on the path mint tokens.
 */
function checkUrl(
  value: string | undefined,
  label: string,
  providerId: string,
  allowHttp: boolean,
): void {
  if (value === undefined) return
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidEndpoints(`Provider "${providerId}": \`${label}\` is not a valid URL`)
  }
  if (url.protocol === "https:") return
  if (url.protocol === "http:" && allowHttp) return
  if (url.protocol === "http:") {
    throw new InvalidEndpoints(
      `Provider "${providerId}": \`${label}\` uses http:. Use https, or set dangerouslyAllowInsecureHttpRequests: true for a loopback test provider`,
    )
  }
  throw new InvalidEndpoints(`Provider "${providerId}": \`${label}\` must be an https URL`)
}

/**
 * The checks of a provider that names none. OpenID: PKCE and `nonce` (the ID Token names the
 * sign-in it was made for). OAuth 2: PKCE and `state`. PKCE alone ties a code to the browser
 * only where the server enforces it, refusing a verifier for a code issued without a challenge
 * (RFC 9700 §4.8.2); many OAuth 2 servers do not, and then an attacker's own code, sent to a
 * victim's browser mid-sign-in, signs the victim in as the attacker or links the attacker's
 * provider account to the victim (RFC 9700 §4.7.1). `state` ties it whatever the server does.
 */
const DEFAULT_CHECKS = { oidc: ["pkce", "nonce"], oauth: ["pkce", "state"] } as const

function resolveChecks(provider: OAuthConfig<any>, proxied: boolean): OAuthChecks {
  const given = provider.checks ?? DEFAULT_CHECKS[provider.type === "oidc" ? "oidc" : "oauth"]
  if (!Array.isArray(given))
    throw new InvalidConfiguration(`Provider "${provider.id}": \`checks\` must be an array`)
  for (const check of given) {
    if (!KNOWN_CHECKS.has(check))
      throw new InvalidConfiguration(`Provider "${provider.id}": unknown check "${String(check)}"`)
  }
  // A copy: the user's array must not change under them.
  const checks = [...new Set(given)] as OAuthChecks
  // Behind a redirect proxy the state carries the origin to forward to.
  if (proxied && !checks.includes("state")) checks.push("state")
  const effective = checks.filter((c) => c !== "none")
  if (effective.length) return effective
  // No state, PKCE or nonce: nothing ties the callback to the browser that started the
  // sign-in (login CSRF, code injection). Only for providers that support none of them.
  if (provider.dangerouslyAllowNoChecks !== true) {
    throw new InvalidConfiguration(
      `Provider "${provider.id}": checks: ["none"] leaves the callback unprotected; use pkce or state, or set dangerouslyAllowNoChecks: true if the provider supports neither`,
    )
  }
  return ["none"]
}

export function normalizeOAuthProvider(
  provider: OAuthConfig<any>,
  context: ProviderResolutionContext,
): ResolvedOAuthProvider {
  const { id } = provider
  const allowHttp = provider.dangerouslyAllowInsecureHttpRequests === true
  const authorization = toEndpoint(provider.authorization, "authorization", id)
  const token = toEndpoint(provider.token, "token", id)
  const userinfo = toEndpoint(provider.userinfo, "userinfo", id)
  checkUrl(provider.issuer, "issuer", id, allowHttp)
  checkUrl(provider.wellKnown, "wellKnown", id, allowHttp)
  checkUrl(provider.jwks_endpoint, "jwks_endpoint", id, allowHttp)
  checkUrl(authorization?.url, "authorization", id, allowHttp)
  checkUrl(token?.url, "token", id, allowHttp)
  checkUrl(userinfo?.url, "userinfo", id, allowHttp)

  const discoverable = !!(provider.issuer || provider.wellKnown)
  if (!discoverable && (!authorization?.url || !(token?.url || token?.request))) {
    throw new InvalidEndpoints(
      `Provider "${id}" needs an issuer, a wellKnown URL, or authorization and token endpoints`,
    )
  }
  if (provider.type === "oidc" && !discoverable) {
    // Without an issuer there is nothing to check an ID Token's `iss` against.
    throw new InvalidEndpoints(`OIDC provider "${id}" needs an issuer or a wellKnown URL`)
  }
  // An OAuth 2 provider that names no profile source would fail every callback:
  // refuse it now, with the fix in the message, rather than at a user's first sign-in.
  if (
    provider.type === "oauth" &&
    !discoverable &&
    !userinfo?.url &&
    !userinfo?.request &&
    provider.idToken !== true
  ) {
    throw new InvalidEndpoints(
      `Provider "${id}" has no way to read the user's profile: set \`userinfo\` (a URL or a request function), an issuer to discover it, or idToken: true if the token response carries an ID Token`,
    )
  }
  const redirectProxyUrl = provider.redirectProxyUrl ?? context.redirectProxyUrl
  if (redirectProxyUrl !== undefined) {
    try {
      new URL(redirectProxyUrl)
    } catch {
      throw new InvalidEndpoints(`Provider "${id}": redirectProxyUrl is not a valid URL`)
    }
  }
  if (provider.profile !== undefined && typeof provider.profile !== "function") {
    throw new InvalidConfiguration(`Provider "${id}": \`profile\` must be a function`)
  }
  if (provider.account !== undefined && typeof provider.account !== "function") {
    throw new InvalidConfiguration(`Provider "${id}": \`account\` must be a function`)
  }
  if (provider.verifiedEmail !== undefined && typeof provider.verifiedEmail !== "function") {
    throw new InvalidConfiguration(`Provider "${id}": \`verifiedEmail\` must be a function`)
  }
  if (allowHttp) context.warnAbout("insecure-issuer", id)
  const checks = resolveChecks(provider, redirectProxyUrl !== undefined)
  if (checks.includes("none")) context.warnAbout("oauth-checks-none", id)

  const resolved = {
    ...provider,
    authorization,
    token,
    userinfo,
    checks,
    redirectProxyUrl,
    profile: provider.profile ?? defaultProfile,
    // OIDC's standard claims say whether the address is verified; plain OAuth 2 says nothing.
    verifiedEmail:
      provider.verifiedEmail ?? (provider.type === "oidc" ? emailIfVerified : noVerifiedEmail),
    account: provider.account ?? defaultAccount,
  } as OAuthConfigInternal<any>
  return resolved as ResolvedOAuthProvider
}
