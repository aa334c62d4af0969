/**
 * POST signin/<oauth provider>: builds the authorization URL, stores the
 * checks (PKCE verifier, state, nonce) in cookies, and redirects the browser
 * to the provider.
 *
 * Parameters, later ones winning: the endpoint URL's own query, then
 * `authorization.params`, then the query of the sign-in request (Auth.js's
 * `signIn(provider, options, authorizationParams)`). The protocol parameters
 * Tessera owns (`response_type`, `client_id`, `redirect_uri`, `state`,
 * `nonce`, `code_challenge*`, ..., and a provider's own name for its client
 * id, such as WeChat's `appid`) cannot be overridden from the request;
 * `response_type` is `code` unless the provider's own `authorization.params` say otherwise.
 * @module
 */
import * as o from "oauth4webapi"
import type { RequestContext } from "../../context.js"
import { OAuthSignInError } from "../../errors.js"
import type { ResponseInternal } from "../../types.js"
import { currentBinding } from "./binding.js"
import { crossSiteOptions, setCheckCookie } from "./checks.js"
import { oauthClient } from "./client.js"
import { authorizationServer } from "./discovery.js"
import { signInFailure } from "./failures.js"
import { isAllowedUrl } from "./http.js"
import { proxiedState, redirectTarget } from "./redirect-proxy.js"
import type { ResolvedOAuthProvider } from "../types.js"

/** Never taken from the sign-in request: they carry the protocol's guarantees. */
const RESERVED = new Set([
  "response_type",
  "client_id",
  "redirect_uri",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "response_mode",
  "request",
  "request_uri",
  "callbackUrl",
  "redirectTo",
  "csrfToken",
])

const DEFAULT_OIDC_SCOPE = "openid profile email"

function paramValue(value: unknown): string {
  // `claims` and other structured parameters are JSON, as OIDC Core specifies.
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value)
}

export async function startOAuthSignIn(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
): Promise<ResponseInternal> {
  const { client } = oauthClient(ctx.config, provider)
  let as: o.AuthorizationServer
  try {
    as = await authorizationServer(ctx.config, provider)
  } catch (error) {
    throw signInFailure(provider.id, error)
  }
  if (!as.authorization_endpoint)
    throw new OAuthSignInError(`Provider "${provider.id}" has no authorization endpoint`)
  const url = new URL(as.authorization_endpoint)
  if (!isAllowedUrl(provider, url))
    throw new OAuthSignInError(`Provider "${provider.id}": the authorization endpoint is not https`)

  for (const [key, value] of Object.entries(provider.authorization?.params ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, paramValue(value))
  }
  const configured = provider.authorization?.params ?? {}
  for (const [key, value] of Object.entries(ctx.request.query)) {
    if (RESERVED.has(key)) continue
    // A provider's own name for the client id (WeChat's `appid`, TikTok's `client_key`)
    // carries the protocol as `client_id` does: the configuration's, never the request's.
    if (configured[key] !== undefined && configured[key] === client.client_id) continue
    url.searchParams.set(key, value)
  }
  const { redirectUri, forwardTo } = redirectTarget(ctx, provider)
  // The authorization code flow. A provider's own configuration may name the value its
  // server calls it by (Azure DevOps: `Assertion`); the sign-in request never can.
  const responseType = provider.authorization?.params?.response_type
  url.searchParams.set("response_type", typeof responseType === "string" ? responseType : "code")
  url.searchParams.set("client_id", client.client_id)
  url.searchParams.set("redirect_uri", redirectUri)
  if (provider.type === "oidc" && !url.searchParams.has("scope"))
    url.searchParams.set("scope", DEFAULT_OIDC_SCOPE)

  const crossSite = url.searchParams.get("response_mode") === "form_post"
  const { checks } = provider
  const startedBy = await currentBinding(ctx)
  if (checks.includes("pkce")) {
    const verifier = o.generateRandomCodeVerifier()
    url.searchParams.set("code_challenge", await o.calculatePKCECodeChallenge(verifier))
    url.searchParams.set("code_challenge_method", "S256")
    await setCheckCookie(ctx, "pkceCodeVerifier", verifier, crossSite, startedBy)
  }
  if (checks.includes("state")) {
    const state = forwardTo ? await proxiedState(ctx, forwardTo) : o.generateRandomState()
    url.searchParams.set("state", state)
    await setCheckCookie(ctx, "state", state, crossSite, startedBy)
  }
  if (checks.includes("nonce")) {
    const nonce = o.generateRandomNonce()
    url.searchParams.set("nonce", nonce)
    await setCheckCookie(ctx, "nonce", nonce, crossSite, startedBy)
  }
  if (crossSite) keepCallbackUrlCrossSite(ctx)
  ctx.config.logger.debug("oauth: redirecting to the authorization endpoint", {
    provider: provider.id,
    checks,
  })
  return { redirect: url.href }
}

/**
 * A form_post callback is a cross-site POST, which carries no `SameSite=Lax`
 * cookie: the remembered callback URL must be `SameSite=None` to survive it.
 */
function keepCallbackUrlCrossSite(ctx: RequestContext): void {
  const option = ctx.cookieOptions.callbackUrl
  const options = crossSiteOptions(option, true)
  const pending = ctx.cookies.find((cookie) => cookie.name === option.name)
  if (pending) {
    pending.options = { ...pending.options, ...options }
    return
  }
  const existing = ctx.request.cookies[option.name]
  if (existing) ctx.cookies.push({ name: option.name, value: existing, options })
}
