import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import { EmailSignInError } from "../errors.js"
import type { ResponseInternal } from "../types.js"

export async function startEmailSignIn(_ctx: RequestContext, provider: InternalProvider<"email">): Promise<ResponseInternal> {
  throw new EmailSignInError(`E-mail sign-in is not available yet for "${provider.id}"`)
}
