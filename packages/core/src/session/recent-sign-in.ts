/**
 * The recent-sign-in policy (`recentSignIn` on a route, `routes.ts`): a
 * session may add a sign-in method or set up a second factor only within
 * `session.recentSignInAge` of its sign-in. Sessions live for days and their
 * cookies can be copied (malware, a shared computer, a leaked backup); without
 * this check the copy would register its holder's own passkey or TOTP key,
 * which outlive the session, survive "sign out everywhere", and (a second
 * factor only the attacker holds) lock the owner out.
 *
 * Linking an OAuth account to the signed-in user is checked where the flow
 * decides to link (`flows/oauth/persist.ts`), since the same request signs in
 * with an account linked already, which is how a stale session gets fresh.
 *
 * The sign-in time is the one the session recorded: `auth_time` in a JWT
 * session, `createdAt` of a database session's record. A session that
 * recorded none (adopted from an Auth.js cookie, or a database session
 * imported from Auth.js, whose record names no provider) is refused: nothing
 * shows it is recent. Database sessions on an adapter without records never know it:
 * for them the check is off by default (`config/resolve.ts`, with a warning)
 * and, when the app sets `recentSignInAge`, always refuses.
 * @module
 */
import type { RequestContext } from "../context.js"
import { RecentSignInRequired } from "../errors.js"
import { RequestError } from "../http/request.js"
import { sessionStrategy } from "./index.js"

/**
 * The refusal for a signed-in request whose sign-in is older than
 * `session.recentSignInAge`, or `undefined` when it may go on. A request with
 * no session may: the action answers that itself (401, or a flow for people
 * not signed in).
 */
export async function staleSignIn(ctx: RequestContext): Promise<RecentSignInRequired | undefined> {
  const limit = ctx.config.session.recentSignInAge
  if (limit === Infinity) return undefined
  const current = await sessionStrategy(ctx).current(ctx)
  if (!current) return undefined
  const { signedInAt } = current
  if (signedInAt !== undefined && Date.now() - signedInAt <= limit * 1000) return undefined
  return new RecentSignInRequired(
    signedInAt === undefined
      ? "Sign in again first: the session does not say when it signed in (one carried over from Auth.js, or a database session on an adapter without session records)"
      : "Sign in again first: adding a sign-in method or a second factor needs a recent sign-in (session.recentSignInAge)",
  )
}

/** The route policy: 403 `{ error: "RecentSignInRequired" }` to a stale session. */
export async function assertRecentSignIn(ctx: RequestContext): Promise<void> {
  const refusal = await staleSignIn(ctx)
  if (refusal) throw new RequestError(refusal, 403)
}
