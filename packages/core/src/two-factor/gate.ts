/**
 * The second-factor gate, declared once where every sign-in ends
 * (`completeSignIn`, between storing the user and starting the session): a
 * user with a confirmed second factor gets no session yet, but the pending
 * cookie and a redirect to the two-factor page. Whatever the first factor
 * was (password, e-mail, OAuth, passkey unless `passkeysSatisfyTwoFactor` and
 * the authenticator verified the user).
 *
 * Kept small and free of the TOTP and QR code modules: it runs on every
 * sign-in, most of them by users without a second factor.
 * @module
 */
import type { RequestContext } from "../context.js"
import { callAdapter } from "../lib/adapter.js"
import { sessionStrategy, type NewSessionParams } from "../session/index.js"
import { staleSignIn } from "../session/recent-sign-in.js"
import type { ResponseInternal } from "../types.js"
import { twoFactorPageUrl } from "./page-url.js"
import { startPending } from "./pending.js"

/**
 * `undefined` when the sign-in may go on to a session; otherwise the redirect
 * to the two-factor step (the pending cookie is set).
 */
export async function secondFactorGate(
  ctx: RequestContext,
  signIn: NewSessionParams,
  callbackUrl: string,
  proof: { userVerifiedPasskey?: boolean | undefined } = {},
): Promise<ResponseInternal | undefined> {
  const settings = ctx.config.twoFactor
  const userId = signIn.user.id
  if (!settings || !userId) return undefined
  // Both factors only when the authenticator verified the user (PIN, biometrics): with user
  // presence alone (`userVerification` relaxed), the passkey is something held, no more.
  if (
    signIn.account?.type === "webauthn" &&
    settings.passkeysSatisfyTwoFactor &&
    proof.userVerifiedPasskey === true
  )
    return undefined
  const factor = await callAdapter(ctx.config, "getTwoFactor", userId)
  if (!factor?.enabledAt) return undefined
  // Already signed in as this user (linking another account): that session passed the gate,
  // recently. A stale one (a copied cookie, say) must not become a fresh sign-in, which may add
  // a passkey and restarts the session's lifetime, on the first factor alone.
  if ((await sessionStrategy(ctx).currentUserId(ctx)) === userId && !(await staleSignIn(ctx)))
    return undefined
  await startPending(ctx, { ...signIn, user: { ...signIn.user, id: userId }, callbackUrl })
  return { redirect: twoFactorPageUrl(ctx) }
}
