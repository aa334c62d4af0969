/**
 * The steps of an e-mail sign-in: loaded by `index.ts` on the first sign-in,
 * never by a server that only checks sessions.
 * @module
 */
import { resolveCallbackUrl, rememberCallbackUrl } from "../../lib/callback-url.js"
import type { RequestContext } from "../../context.js"
import type { ResponseInternal } from "../../types.js"
import type { ResolvedEmailProvider } from "../types.js"
import { startEmailSignIn } from "./signin.js"

export { emailCallback } from "./callback.js"
export { persistEmail } from "./persist.js"

export async function emailSignIn(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
): Promise<ResponseInternal> {
  rememberCallbackUrl(ctx, await resolveCallbackUrl(ctx))
  return startEmailSignIn(ctx, provider)
}
