/**
 * The OAuth client (oauth4webapi `Client`) a provider signs in as, and how it
 * authenticates at the token endpoint.
 * @module
 */
import * as o from "oauth4webapi"
import { OAuthSignInError } from "../../errors.js"
import type { ResolvedConfig } from "../../config/resolve.js"
import type { ResolvedOAuthProvider } from "../types.js"
import { oauthCacheOf, type OAuthClient } from "./cache.js"

type Provider = ResolvedOAuthProvider

export type { OAuthClient }

/**
 * `client_secret_basic` by default (RFC 6749's preferred method), `none` for
 * public clients without a secret; `client.token_endpoint_auth_method` overrides.
 */
export function oauthClient(
  config: Pick<ResolvedConfig, "oauth">,
  provider: Provider,
): OAuthClient {
  const cache = oauthCacheOf(config, provider)
  if (cache.client) return cache.client
  if (!provider.clientId) {
    const variable = `AUTH_${provider.id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_ID`
    throw new OAuthSignInError(
      `Provider "${provider.id}" has no clientId (set clientId or ${variable})`,
    )
  }
  const { token_endpoint_auth_method: configured, ...metadata } = provider.client ?? {}
  const method = configured ?? (provider.clientSecret ? "client_secret_basic" : "none")
  const client: o.Client = { ...metadata, client_id: provider.clientId }
  cache.client = { client, clientAuth: clientAuthentication(provider, method) }
  return cache.client
}

function clientAuthentication(provider: Provider, method: string): o.ClientAuth {
  if (method === "none") return o.None()
  if (method !== "client_secret_basic" && method !== "client_secret_post") {
    throw new OAuthSignInError(
      `Provider "${provider.id}": unsupported token_endpoint_auth_method "${method}"`,
    )
  }
  if (!provider.clientSecret) {
    const variable = `AUTH_${provider.id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_SECRET`
    throw new OAuthSignInError(
      `Provider "${provider.id}" has no clientSecret (set clientSecret or ${variable})`,
    )
  }
  return method === "client_secret_post"
    ? o.ClientSecretPost(provider.clientSecret)
    : o.ClientSecretBasic(provider.clientSecret)
}
