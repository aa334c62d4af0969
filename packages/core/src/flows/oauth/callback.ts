/**
 * GET (or, for `response_mode=form_post`, POST) callback/<oauth provider>.
 *
 * Order matters: the redirect proxy forwards before anything is checked (the
 * cookies live on the deployment that started the sign-in); then every check
 * cookie is read, and cleared, before the code is spent; then oauth4webapi
 * validates the authorization response (`iss`, `state`, provider `error`),
 * the token response and the ID Token; only then is a profile fetched and a
 * session started. Any failure throws, and the handler sends the user to the
 * sign-in page with `error=OAuthCallbackError` and no session.
 *
 * No CSRF token here: a form_post callback is a cross-site POST by design.
 * State, PKCE and nonce are what tie the callback to this browser.
 * @module
 */
import * as o from "oauth4webapi"
import type { RequestContext } from "../../context.js"
import { InvalidCheck, OAuthCallbackError } from "../../errors.js"
import { timingSafeEqual } from "../../lib/crypto.js"
import { callAdapter } from "../../lib/adapter.js"
import { completeSignIn } from "../sign-in/complete.js"
import type { ResponseInternal } from "../../types.js"
import { useCheckCookies, type CheckCookie } from "./checks.js"
import { oauthClient } from "./client.js"
import { authorizationServer, UNKNOWN_ISSUER } from "./discovery.js"
import { callbackFailure } from "./failures.js"
import { emailOf, fetchProfile, toUserAndAccount } from "./profile.js"
import { forwardingUrl, redirectTarget } from "./redirect-proxy.js"
import { persistOAuth, type OAuthIdentity } from "./persist.js"
import { exchangeCode } from "./tokens.js"
import type { ResolvedOAuthProvider } from "../types.js"

/** The authorization response: the query, or the form body of a form_post. */
function callbackParameters(ctx: RequestContext): URLSearchParams {
  const params = new URLSearchParams()
  if (ctx.request.method === "POST" && ctx.request.body) {
    for (const [key, value] of Object.entries(ctx.request.body))
      if (typeof value === "string") params.set(key, value)
  }
  for (const [key, value] of ctx.request.url.searchParams)
    if (!params.has(key)) params.set(key, value)
  return params
}

export async function oauthCallback(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
): Promise<ResponseInternal> {
  const params = callbackParameters(ctx)
  const forward = await forwardingUrl(ctx, provider, params)
  if (forward) {
    ctx.config.logger.debug("oauth: forwarding the callback through the redirect proxy", {
      provider: provider.id,
    })
    return { redirect: forward }
  }
  let identity: OAuthIdentity
  try {
    const oauth = oauthClient(ctx.config, provider)
    const as = await authorizationServer(ctx.config, provider)
    const { checks } = provider

    // Every check cookie is read (and cleared) before anything else, pass or fail.
    const wanted: CheckCookie[] = []
    if (checks.includes("state")) wanted.push("state")
    if (checks.includes("pkce")) wanted.push("pkceCodeVerifier")
    if (checks.includes("nonce")) wanted.push("nonce")
    const { values, startedBy } = await useCheckCookies(ctx, wanted)
    const { state, pkceCodeVerifier: codeVerifier, nonce } = values
    if (state !== undefined) {
      const returned = params.get("state")
      if (!returned) throw new InvalidCheck("The authorization response has no state")
      if (!timingSafeEqual(returned, state))
        throw new InvalidCheck("The state does not match the one this browser started with")
    }

    const response = new URLSearchParams(params)
    // With no known issuer (endpoints configured by hand) there is nothing to compare `iss` with.
    if (as.issuer === UNKNOWN_ISSUER) response.delete("iss")
    const grant = o.validateAuthResponse(as, oauth.client, response, state ?? o.skipStateCheck)
    // Neither a code nor an error: a hand-made callback URL, the client's doing, not the provider's.
    if (!params.get("code")) throw new OAuthCallbackError("The authorization response has no code")

    const { redirectUri } = redirectTarget(ctx, provider)
    const { tokens, claims } = await exchangeCode({
      provider,
      as,
      oauth,
      grant,
      params,
      redirectUri,
      codeVerifier,
      state,
      nonce,
    })
    const profile = await fetchProfile({ provider, as, oauth, tokens, claims, params })
    const { user, account, stored } = await toUserAndAccount(provider, profile, tokens)
    const { email, verified } = emailOf(provider, user, profile, tokens)
    identity = {
      user: { ...user, email },
      account,
      storedAccount: stored,
      profile,
      emailVerified: verified,
      startedBy,
    }
  } catch (error) {
    throw callbackFailure(provider.id, error)
  }
  ctx.config.logger.debug("oauth: callback checks passed", { provider: provider.id })
  // As in Auth.js, the `signIn` callback of an account linked already sees its stored user.
  const { adapter } = ctx.config
  const { provider: id, providerAccountId } = identity.account
  const linked = adapter
    ? await callAdapter(ctx.config, "getUserByAccount", { provider: id, providerAccountId })
    : null
  // The signIn callback, users and accounts, the session: shared with every other sign-in.
  return completeSignIn(ctx, identity, persistOAuth, linked ? { signInUser: linked } : {})
}
