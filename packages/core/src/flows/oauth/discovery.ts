/**
 * The authorization server's metadata for a provider: discovered (from
 * `wellKnown`, or the issuer's `/.well-known/openid-configuration`) and/or
 * taken from the configured endpoints, which win over discovered ones.
 *
 * Discovery documents are fetched once per URL and kept for the life of the
 * process (module scope); a failed fetch is not cached, so the next sign-in
 * retries. The merged metadata is kept per resolved provider, which also keeps
 * oauth4webapi's JWKS cache (keyed by the metadata object) warm.
 * @module
 */
import * as o from "oauth4webapi"
import { httpOptions, providerFetch } from "./http.js"
import type { ResolvedOAuthProvider } from "../types.js"

type Provider = ResolvedOAuthProvider

const documents = new Map<string, Promise<o.AuthorizationServer>>()
const merged = new WeakMap<Provider, Promise<o.AuthorizationServer>>()

/**
 * Stands in for the issuer of OAuth 2 providers configured with endpoints only.
 * Never a valid URL an attacker's token could carry as `iss`.
 */
export const UNKNOWN_ISSUER = "urn:tessera:unknown-issuer"

/** The metadata for `provider`, cached. */
export function authorizationServer(provider: Provider): Promise<o.AuthorizationServer> {
  let entry = merged.get(provider)
  if (!entry) {
    entry = resolve(provider)
    merged.set(provider, entry)
    entry.catch(() => merged.delete(provider))
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
  const key = provider.wellKnown ?? `${provider.issuer}#${provider.type}`
  let entry = documents.get(key)
  if (!entry) {
    entry = provider.wellKnown
      ? fetchWellKnown(provider, provider.wellKnown)
      : fetchFromIssuer(provider, provider.issuer!)
    documents.set(key, entry)
    entry.catch(() => documents.delete(key))
  }
  return entry
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
