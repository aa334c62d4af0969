/**
 * OpenID Connect RP-Initiated Logout 1.0: where sign-out sends the browser
 * when the session signed in through a provider with `signOut: "provider"`.
 *
 * The local session ends first (the caller destroys it whatever happens
 * here); then the browser goes to the provider's `end_session_endpoint` with
 * `id_token_hint` (the account's stored ID Token, or, without an adapter, the
 * one the JWT session cookie carries),
 * `client_id`, `post_logout_redirect_uri` (an allowed URL of this app: it
 * passes the `redirect` callback) and a random `state`. When the provider has
 * no such endpoint, or it cannot be reached, sign-out stays local (logged).
 *
 * @see https://openid.net/specs/openid-connect-rpinitiated-1_0.html#RPLogout
 * @module
 */
import type { RequestContext } from "../../context.js"
import { OAuthProviderError } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { randomHex } from "../../lib/crypto.js"
import type { CurrentSession } from "../../session/index.js"
import type { ResolvedOAuthProvider } from "../types.js"
import { authorizationServer } from "./discovery.js"
import { isAllowedUrl } from "./http.js"

/** The provider's end-session URL for the signed-in `session`, or `undefined` to stay local. */
export async function providerLogoutUrl(
  ctx: RequestContext,
  session: CurrentSession,
  callbackUrl: string,
): Promise<string | undefined> {
  const id = session.provider?.id
  const provider = id ? ctx.config.flows.get(id)?.provider : undefined
  if (!provider || provider.type !== "oidc" || provider.signOut !== "provider") return undefined
  try {
    return await endSessionUrl(ctx, provider, session, callbackUrl)
  } catch (error) {
    // The local session ends regardless; the user is not kept signed in by a provider's outage.
    ctx.config.logger.error(
      new OAuthProviderError(`Provider "${provider.id}": RP-initiated logout failed`, {
        cause: { err: error },
      }),
    )
    return undefined
  }
}

async function endSessionUrl(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
  session: CurrentSession,
  callbackUrl: string,
): Promise<string | undefined> {
  if (provider.type !== "oidc") return undefined
  const as = await authorizationServer(ctx.config, provider)
  const endpoint = as.end_session_endpoint
  if (!endpoint) {
    ctx.config.logger.debug("signout: the provider has no end_session_endpoint", {
      provider: provider.id,
    })
    return undefined
  }
  const url = new URL(endpoint)
  if (!isAllowedUrl(provider, url)) throw new TypeError("end_session_endpoint is not https")
  const accountId = session.provider?.accountId
  if (ctx.config.adapter?.getAccount && accountId) {
    const account = await callAdapter(ctx.config, "getAccount", accountId, provider.id)
    // Only the signed-in user's own ID Token: a JWT's `idp` claim is whatever the app's `jwt`
    // callback returned, and one that spreads `update()` data over the token lets the browser
    // name someone else's account (their ID Token holds their profile claims).
    if (account?.id_token && account.userId === session.userId)
      url.searchParams.set("id_token_hint", account.id_token)
  } else if (session.provider?.idToken) {
    // No adapter: the sign-in's own ID Token, kept in the encrypted session token (jwt.ts).
    url.searchParams.set("id_token_hint", session.provider.idToken)
  }
  if (provider.clientId) url.searchParams.set("client_id", provider.clientId)
  const target = provider.postLogoutRedirectUri
    ? await ctx.config.callbacks.redirect({
        url: provider.postLogoutRedirectUri,
        baseUrl: ctx.origin,
      })
    : callbackUrl
  url.searchParams.set("post_logout_redirect_uri", new URL(target, ctx.origin).href)
  url.searchParams.set("state", randomHex(16))
  return url.href
}
