/**
 * The authorization server's metadata for a provider: discovered (from
 * `wellKnown`, or the issuer's `/.well-known/openid-configuration`) and/or
 * taken from the configured endpoints, which win over discovered ones.
 *
 * The merged metadata is kept on the resolved configuration, per provider
 * (`cache.ts`): discovered once per configuration, through the provider's own
 * fetch, never shared with another configuration that names the same issuer.
 * A failed discovery is not kept, so the next sign-in retries. Keeping the
 * object also keeps oauth4webapi's JWKS cache (keyed by it) warm.
 * @module
 */
import * as o from "oauth4webapi"
import { httpOptions, providerFetch } from "./http.js"
import type { ResolvedConfig } from "../../config/resolve.js"
import type { ResolvedOAuthProvider } from "../types.js"
import { oauthCacheOf } from "./cache.js"

type Provider = ResolvedOAuthProvider

/**
 * Stands in for the issuer of OAuth 2 providers configured with endpoints only.
 * Never a valid URL an attacker's token could carry as `iss`.
 */
export const UNKNOWN_ISSUER = "urn:tessera:unknown-issuer"

/** The metadata for `provider`, cached on `config`. */
export function authorizationServer(
  config: Pick<ResolvedConfig, "oauth">,
  provider: Provider,
): Promise<o.AuthorizationServer> {
  const cache = oauthCacheOf(config, provider)
  let entry = cache.metadata
  if (!entry) {
    const pending = resolve(provider)
    entry = cache.metadata = pending
    pending.catch(() => {
      if (cache.metadata === pending) cache.metadata = undefined
    })
  }
  return entry
}

/** True when the configured endpoints leave something only the metadata can tell. */
function needsDiscovery(provider: Provider): boolean {
  if (provider.wellKnown) return true
  if (!provider.issuer) return false
  const missingAuthorization = !provider.authorization?.url
  const missingToken = !provider.token?.url && !provider.token?.request
  const readsUserinfo = provider.type === "oauth" || provider.idToken === false
  const missingUserinfo = readsUserinfo && !provider.userinfo?.url && !provider.userinfo?.request
  const missingJwks = provider.type === "oidc" && !provider.jwks_endpoint
  return missingAuthorization || missingToken || missingUserinfo || missingJwks
}

async function resolve(provider: Provider): Promise<o.AuthorizationServer> {
  const base: o.AuthorizationServer = needsDiscovery(provider)
    ? await discover(provider)
    : { issuer: provider.issuer ?? UNKNOWN_ISSUER }
  const overrides: Record<string, string> = {}
  if (provider.authorization?.url) overrides.authorization_endpoint = provider.authorization.url
  if (provider.token?.url) overrides.token_endpoint = provider.token.url
  if (provider.userinfo?.url) overrides.userinfo_endpoint = provider.userinfo.url
  if (provider.jwks_endpoint) overrides.jwks_uri = provider.jwks_endpoint
  return { ...base, ...overrides }
}

function discover(provider: Provider): Promise<o.AuthorizationServer> {
  return provider.wellKnown
    ? fetchWellKnown(provider, provider.wellKnown)
    : fetchFromIssuer(provider, provider.issuer!)
}

async function fetchFromIssuer(provider: Provider, issuer: string): Promise<o.AuthorizationServer> {
  const url = new URL(issuer)
  const response = await o.discoveryRequest(url, { ...httpOptions(provider), algorithm: "oidc" })
  return o.processDiscoveryResponse(url, response)
}

/** An explicit `wellKnown` URL is the document fetched, whatever the issuer's path. */
async function fetchWellKnown(
  provider: Provider,
  wellKnown: string,
): Promise<o.AuthorizationServer> {
  const response = await providerFetch(provider)(wellKnown, {
    headers: { accept: "application/json" },
  })
  let issuer = provider.issuer
  if (!issuer) {
    // The document was named by the developer; its own issuer is then the expected one.
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined)
    const claimed =
      body && typeof body === "object" ? (body as { issuer?: unknown }).issuer : undefined
    if (typeof claimed !== "string") throw new TypeError("The wellKnown document has no issuer")
    issuer = claimed
  }
  return o.processDiscoveryResponse(new URL(issuer), response)
}
