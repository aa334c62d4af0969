/**
 * Resolution of `oauth`/`oidc` providers: endpoint strings become endpoint
 * objects, checks and the default `profile`/`account` callbacks are filled in,
 * and configurations that cannot work are rejected at start.
 * @module
 */
import { InvalidEndpoints } from "../errors.js"
import type { InternalProvider, ProviderResolutionContext } from "../config/providers.js"
import type { OAuthConfig, OAuthConfigInternal } from "../providers/oauth.js"
import type { Profile, TokenSet, User } from "../types.js"

function toEndpoint(value: unknown): { url?: string; params?: Record<string, unknown> } | undefined {
  if (value === undefined) return undefined
  if (typeof value === "string") return { url: value }
  return value as { url?: string }
}

/** Keeps id, name, email and image (picture), as Auth.js does. */
export function defaultProfile(profile: Profile): User {
  return {
    id: String(profile.sub ?? profile.id ?? ""),
    name: (profile.name ?? profile.nickname ?? profile.preferred_username ?? null) as string | null,
    email: (profile.email ?? null) as string | null,
    image: (profile.picture ?? null) as string | null,
  }
}

/** Keeps the token fields an Account stores. */
export function defaultAccount(tokens: TokenSet): TokenSet {
  const keep = ["access_token", "id_token", "refresh_token", "expires_at", "scope", "token_type", "session_state"]
  const account: TokenSet = {}
  for (const key of keep) if (tokens[key] !== undefined) account[key] = tokens[key]
  return account
}

export function normalizeOAuthProvider(provider: OAuthConfig<any>, context: ProviderResolutionContext): InternalProvider<"oauth" | "oidc"> {
  const authorization = toEndpoint(provider.authorization)
  const token = toEndpoint(provider.token)
  const userinfo = toEndpoint(provider.userinfo)
  const discoverable = !!(provider.issuer || provider.wellKnown)
  if (!discoverable && (!authorization?.url || !(token?.url || (token as any)?.request))) {
    throw new InvalidEndpoints(
      `Provider "${provider.id}" needs an issuer, a wellKnown URL, or authorization and token endpoints`,
    )
  }
  const checks = provider.checks ?? (provider.type === "oidc" ? ["pkce", "nonce"] : ["pkce"])
  if ((provider.redirectProxyUrl ?? context.redirectProxyUrl) && !checks.includes("state")) checks.push("state")
  if (provider.dangerouslyAllowInsecureHttpRequests) context.logger.warn("insecure-issuer")
  const resolved: OAuthConfigInternal<any> = {
    ...provider,
    authorization,
    token,
    userinfo,
    checks,
    redirectProxyUrl: provider.redirectProxyUrl ?? context.redirectProxyUrl,
    profile: provider.profile ?? defaultProfile,
    account: provider.account ?? defaultAccount,
  } as OAuthConfigInternal<any>
  return resolved as InternalProvider<"oauth" | "oidc">
}
