/**
 * POST signout (CSRF checked): ends the session (cookie and, with database
 * sessions, the row) and redirects.
 * @module
 */
import type { RequestContext } from "../context.js"
import { resolveCallbackUrl } from "../lib/callback-url.js"
import { sessionStrategy } from "../session/index.js"
import type { ResponseInternal } from "../types.js"

export async function signOut(ctx: RequestContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  await sessionStrategy(ctx).destroy(ctx)
  return { redirect: callbackUrl }
}
