/**
 * POST signin[/<provider>]: starts a sign-in through the provider's flow.
 * Without a provider (or for passkeys, which start in the browser) the
 * sign-in page answers.
 * @module
 */
import type { RequestContext } from "../context.js"
import type { ResponseInternal } from "../types.js"
import { signInPage } from "./pages.js"

export async function signIn(ctx: RequestContext): Promise<ResponseInternal> {
  return ctx.flow ? ctx.flow.signIn(ctx) : signInPage(ctx)
}
