/**
 * What the OAuth flow keeps per provider, owned by the resolved configuration
 * (`ResolvedConfig.oauth`, by provider id) rather than module scope: the
 * authorization server's metadata (discovered once per configuration, through
 * the provider's own fetch), the client it signs in as, and the key set of its
 * logout tokens. A configuration that is dropped takes its caches with it, and
 * two configurations naming the same issuer never share what one discovered.
 *
 * Types only at import: the OAuth modules (and oauth4webapi) load with the
 * first sign-in, not with the configuration.
 * @module
 */
import type * as o from "oauth4webapi"
import type { createRemoteJWKSet } from "jose"
import type { ResolvedConfig } from "../../config/resolve.js"
import type { ResolvedOAuthProvider } from "../types.js"

/** The client a provider signs in as, and how it authenticates at the token endpoint. */
export interface OAuthClient {
  client: o.Client
  clientAuth: o.ClientAuth
}

export interface OAuthProviderCache {
  /**
   * The merged metadata (discovered and configured), and when it failed:
   * a failure is kept for a while only (`DISCOVERY_RETRY_AFTER_MS`, discovery.ts).
   */
  metadata?: { promise: Promise<o.AuthorizationServer>; failedAt?: number }
  client?: OAuthClient
  /** jose's remote key set for back-channel logout tokens, for the `jwks_uri` it was made for. */
  logoutKeys?: { url: string; keys: ReturnType<typeof createRemoteJWKSet> }
}

/** By provider id (unique in a configuration). */
export type OAuthCaches = Map<string, OAuthProviderCache>

/** `provider`'s cache in `config`, created on first use. */
export function oauthCacheOf(
  config: Pick<ResolvedConfig, "oauth">,
  provider: ResolvedOAuthProvider,
): OAuthProviderCache {
  let cache = config.oauth.get(provider.id)
  if (!cache) {
    cache = {}
    config.oauth.set(provider.id, cache)
  }
  return cache
}
