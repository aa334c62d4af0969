/**
 * Redirect proxy: one stable deployment (`redirectProxyUrl`) is registered at
 * the provider and receives every callback; preview deployments, whose URLs
 * cannot all be registered, start sign-ins with the proxy's callback as
 * `redirect_uri` and their own callback URL inside the `state`. The proxy
 * forwards the untouched callback to that URL, where the checks run against
 * the cookies set when the sign-in started.
 *
 * The state is then encrypted with the shared secret, so only a deployment
 * holding the secret can name a forwarding target: the proxy is no open
 * redirect for authorization codes.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { actionUrl } from "../../http/urls.js"
import { decrypt, encrypt } from "../../jwt/codec.js"
import { isAllowedHost } from "../../config/origin.js"
import { randomHex } from "../../lib/crypto.js"
import type { ResolvedOAuthProvider } from "../types.js"

type Provider = ResolvedOAuthProvider

/** Key-derivation salt of proxied states; distinct from every cookie name. */
const STATE_SALT = "tessera.redirect-proxy-state"
const STATE_MAX_AGE = 15 * 60

export function ownCallbackUrl(ctx: RequestContext, provider: Provider): string {
  return actionUrl(ctx, "callback", provider.id)
}

/** The proxy's callback URL for `provider`: the proxy URL is the auth base URL, or already the callback. */
export function proxyCallbackUrl(proxy: string, providerId: string): string {
  const suffix = `/callback/${providerId}`
  const trimmed = proxy.replace(/\/+$/, "")
  return trimmed.endsWith(suffix) ? trimmed : `${trimmed}${suffix}`
}

export interface RedirectTarget {
  /** The `redirect_uri` sent to the provider (and again at the token endpoint). */
  redirectUri: string
  /** Set when the callback goes through the proxy: where it must be forwarded. */
  forwardTo?: string
}

/** Deterministic: the callback recomputes the same `redirect_uri` for the token request. */
export function redirectTarget(ctx: RequestContext, provider: Provider): RedirectTarget {
  const own = ownCallbackUrl(ctx, provider)
  const proxy = provider.redirectProxyUrl
  if (!proxy) return { redirectUri: own }
  const proxyCallback = proxyCallbackUrl(proxy, provider.id)
  if (new URL(proxyCallback).origin === ctx.origin) return { redirectUri: own }
  return { redirectUri: proxyCallback, forwardTo: own }
}

/** A state that names the deployment to forward the callback to. */
export function proxiedState(ctx: RequestContext, forwardTo: string): Promise<string> {
  const random = randomHex(32)
  return encrypt(ctx.config.keys, STATE_SALT, { origin: forwardTo, random }, STATE_MAX_AGE)
}

/**
 * On the proxy: the URL to forward this callback to, or `undefined` when the
 * callback is for this deployment (or its state names no valid target).
 */
export async function forwardingUrl(
  ctx: RequestContext,
  provider: Provider,
  params: URLSearchParams,
): Promise<string | undefined> {
  const proxy = provider.redirectProxyUrl
  const state = params.get("state")
  if (!proxy || !state || new URL(proxy).origin !== ctx.origin) return undefined
  let origin: unknown
  try {
    origin = (await decrypt(ctx.config.keys, STATE_SALT, state))?.origin
  } catch {
    return undefined
  }
  if (typeof origin !== "string") return undefined
  let target: URL
  try {
    target = new URL(origin)
  } catch {
    return undefined
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return undefined
  if (!target.pathname.endsWith(`/callback/${provider.id}`) || target.search || target.hash)
    return undefined
  if (target.href === ownCallbackUrl(ctx, provider)) return undefined
  // Only to the app's own deployments: allowedHosts names them (e.g. *.preview.example.com).
  const allowed = ctx.config.origin.allowedHosts
  if (!allowed || !isAllowedHost(target.host, allowed)) {
    ctx.config.logger.debug("oauth: the redirect proxy refused a target outside allowedHosts", {
      provider: provider.id,
    })
    return undefined
  }
  target.search = params.toString()
  return target.href
}
