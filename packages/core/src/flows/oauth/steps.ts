/**
 * The steps of an OAuth/OIDC sign-in, on oauth4webapi: loaded by `index.ts` on
 * the first sign-in, never by a server that only checks sessions.
 * @module
 */
import { resolveCallbackUrl, rememberCallbackUrl } from "../../lib/callback-url.js"
import type { RequestContext } from "../../context.js"
import type { ResponseInternal } from "../../types.js"
import type { ResolvedOAuthProvider } from "../types.js"
import { startOAuthSignIn } from "./authorization.js"

export { oauthCallback } from "./callback.js"
export { persistOAuth } from "./persist.js"

export async function oauthSignIn(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
): Promise<ResponseInternal> {
  rememberCallbackUrl(ctx, await resolveCallbackUrl(ctx))
  return startOAuthSignIn(ctx, provider)
}
