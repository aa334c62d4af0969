import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import { OAuthCallbackError } from "../errors.js"
import type { ResponseInternal } from "../types.js"

export async function oauthCallback(_ctx: RequestContext, provider: InternalProvider<"oauth" | "oidc">): Promise<ResponseInternal> {
  throw new OAuthCallbackError(`OAuth callback is not available yet for "${provider.id}"`)
}
