/**
 * The authorization server's metadata for a provider: discovered (from
 * `wellKnown`, or the issuer's `/.well-known/openid-configuration`) and/or
 * taken from the configured endpoints, which win over discovered ones.
 *
 * The merged metadata is kept on the resolved configuration, per provider
 * (`cache.ts`): discovered once per configuration, through the provider's own
 * fetch, never shared with another configuration that names the same issuer.
 * Keeping the object also keeps oauth4webapi's JWKS cache (keyed by it) warm.
 * An app that makes a new configuration object per request discovers (and
 * fetches the key set) again at each sign-in's start and callback, as Auth.js
 * does on every sign-in. Not cached across objects: the merged metadata is
 * the object's provider's (its configured endpoints), and a shared document
 * would have to be keyed by its URL, the provider's fetch and its http
 * setting, while a per-request `[customFetch]` would still miss it.
 *
 * Sign-ins that come while discovery runs wait on that one request. A failed
 * discovery is kept for {@link DISCOVERY_RETRY_AFTER_MS}: during an outage
 * the sign-ins in that window get the first one's failure at once, instead of
 * each sending a request and waiting on it (up to the 10 s request bound when
 * the issuer hangs); the first sign-in after the window tries again.
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

/**
 * How long a failed discovery is remembered (ms): 10 s, the bound of one request. Short
 * enough that a passing failure (one dropped connection) fails sign-ins for seconds, not
 * minutes; long enough that an outage costs one request (and one wait, shared by the
 * sign-ins that arrive during it) per provider every 10 s rather than one per sign-in.
 */
export const DISCOVERY_RETRY_AFTER_MS = 10_000

/** The metadata for `provider`, cached on `config` (a failure for a while: see the module). */
export function authorizationServer(
  config: Pick<ResolvedConfig, "oauth">,
  provider: Provider,
): Promise<o.AuthorizationServer> {
  const cache = oauthCacheOf(config, provider)
  const kept = cache.metadata
  // Date.now() read per call: a test moves the clock (a fake Date) instead of waiting.
  const expired =
    kept?.failedAt !== undefined && Date.now() - kept.failedAt >= DISCOVERY_RETRY_AFTER_MS
  if (kept && !expired) return kept.promise
  const entry: NonNullable<typeof cache.metadata> = { promise: resolve(provider) }
  cache.metadata = entry
  entry.promise.catch(() => {
    entry.failedAt = Date.now()
  })
  return entry.promise
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
