/**
 * POST signout (CSRF checked): ends the session (cookie and, with database
 * sessions or session records, the row) and redirects.
 *
 * `scope=all` ends every session of the user first, `scope=others` every one
 * but this (and then stays signed in here). A session that signed in through
 * a provider with `signOut: "provider"` is then sent to that provider's
 * logout (RP-Initiated Logout; `flows/oauth/logout.ts`).
 *
 * A sign-in of this browser still waiting for its second factor ends too: the
 * user asked to be signed out, not to finish signing in a minute later.
 * @module
 */
import type { RequestContext } from "../context.js"
import { InvalidRequest } from "../errors.js"
import { lazy } from "../flows/lazy.js"
import { readChunkedCookie } from "../http/cookies.js"
import { RequestError } from "../http/request.js"
import { resolveCallbackUrl } from "../lib/callback-url.js"
import { sessionStrategy } from "../session/index.js"
import { revokeSessions } from "../session/records.js"
import { abandonPending } from "../two-factor/pending.js"
import type { ResponseInternal } from "../types.js"
import { notImplemented } from "./sessions.js"

/** RP-initiated logout (the OAuth modules, oauth4webapi): loaded when a session may need it. */
const logout = lazy(() => import("../flows/oauth/logout.js"))

/** True when some provider ends its own session on sign-out. */
function anyProviderSignOut(ctx: RequestContext): boolean {
  return ctx.config.providers.some((p) => p.type === "oidc" && p.signOut === "provider")
}

export async function signOut(ctx: RequestContext): Promise<ResponseInternal> {
  const scope: unknown = ctx.request.body?.scope
  if (scope !== undefined && scope !== "" && scope !== "all" && scope !== "others") {
    throw new RequestError(new InvalidRequest('`scope` must be "all" or "others"'), 400)
  }
  if (scope) {
    const missing = notImplemented(ctx)
    if (missing) return missing
  }
  const callbackUrl = await resolveCallbackUrl(ctx)
  const strategy = sessionStrategy(ctx)
  const current = scope || anyProviderSignOut(ctx) ? await strategy.current(ctx) : null
  if (current && scope === "others") {
    await revokeSessions(ctx, { userId: current.userId, exceptId: current.sessionId }, "user")
    return { redirect: callbackUrl }
  }
  if (current && scope === "all") {
    // This session ends below, as any sign-out: `signOut` fires for it, `sessionRevoked` for the rest.
    await revokeSessions(ctx, { userId: current.userId }, "user", current.sessionId)
  }
  const logoutUrl = current
    ? await (await logout()).providerLogoutUrl(ctx, current, callbackUrl)
    : undefined
  await strategy.destroy(ctx)
  if (readChunkedCookie(ctx.request.cookies, ctx.cookieOptions.twoFactor.name) !== undefined)
    await abandonPending(ctx)
  return { redirect: logoutUrl ?? callbackUrl }
}
