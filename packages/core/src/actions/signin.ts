/**
 * POST signin[/<provider>]: starts a sign-in through the provider's flow.
 * Without a provider (or for passkeys, which start in the browser) the
 * sign-in page answers.
 * @module
 */
import type { RequestContext } from "../context.js"
import type { ResponseInternal } from "../types.js"

export async function signIn(ctx: RequestContext): Promise<ResponseInternal> {
  if (ctx.flow) return ctx.flow.signIn(ctx)
  // The pages load with the first one shown (see routes.ts).
  const { signInPage } = await import("./pages.js")
  return signInPage(ctx)
}
