import type { RequestContext } from "../context.js"
import { assertCsrf } from "../http/csrf.js"
import { resolveCallbackUrl } from "../lib/callback-url.js"
import { sessionStrategy } from "../session/index.js"
import type { ResponseInternal } from "../types.js"

/** POST signout: ends the session (cookie and, with database sessions, the row) and redirects. */
export async function signOut(ctx: RequestContext): Promise<ResponseInternal> {
  await assertCsrf(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx)
  await sessionStrategy(ctx).destroy(ctx)
  return { redirect: callbackUrl, cookies: ctx.cookies }
}
