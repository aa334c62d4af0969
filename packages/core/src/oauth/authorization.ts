import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import { OAuthSignInError } from "../errors.js"
import type { ResponseInternal } from "../types.js"

export async function startOAuthSignIn(_ctx: RequestContext, provider: InternalProvider<"oauth" | "oidc">): Promise<ResponseInternal> {
  throw new OAuthSignInError(`OAuth sign-in is not available yet for "${provider.id}"`)
}
