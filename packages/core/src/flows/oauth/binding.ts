/**
 * Binds an OAuth sign-in to who started it, so that a callback links a new
 * provider account to the signed-in user only when that same user started the
 * sign-in. Without it, a browser whose session changed mid-flow (a shared
 * computer, a session swapped in by another tab or an attacker) would attach
 * the provider account to whoever is signed in when the callback arrives.
 *
 * The binding is an HMAC of the user id (nothing readable), carried inside the
 * encrypted check cookies; an anonymous start binds to the empty string.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { sessionStrategy } from "../../session/index.js"

/** The binding of `userId` (or of nobody). */
export function bindingOf(ctx: RequestContext, userId: string | null): Promise<string> {
  return ctx.config.keys.hmac(`tessera.oauth-started-by:${userId ?? ""}`)
}

/** The binding of whoever is signed in on this request. */
export async function currentBinding(ctx: RequestContext): Promise<string> {
  return bindingOf(ctx, await sessionStrategy(ctx).currentUserId(ctx))
}
