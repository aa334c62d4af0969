/**
 * The last steps every sign-in shares, whatever proved the user's identity:
 * the `signIn` callback, persisting the user, the second-factor gate,
 * starting the session, the `signIn` event, and the redirect.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { expiredCookie } from "../../http/cookies.js"
import { resolveCallbackUrl } from "../../lib/callback-url.js"
import { fireEvent } from "../../lib/events.js"
import { sessionStrategy, type NewSessionParams } from "../../session/index.js"
import { secondFactorGate } from "../../two-factor/gate.js"
import type { AdapterUser } from "../../adapters.js"
import type { ResponseInternal, User } from "../../types.js"
import type { Persist, ProviderIdentity } from "../types.js"
import { askSignIn } from "./verdict.js"

export interface CompleteSignInOptions {
  /** The submitted credentials, for the `signIn` callback. */
  credentials?: Record<string, unknown>
  /** Set for e-mail sign-ins, as Auth.js does. */
  email?: { verificationRequest?: boolean }
  /**
   * The user the `signIn` callback sees when not the provider's: Auth.js passes the stored
   * user of an OAuth account linked already (`persist` still decides who signs in).
   */
  signInUser?: User | AdapterUser
  /**
   * A passkey sign-in whose authenticator verified the user (the UV flag: PIN or
   * biometrics), which `twoFactor.passkeysSatisfyTwoFactor` may count as both factors.
   * A passkey used with user presence only (an app that relaxed `userVerification`)
   * is one factor: whoever holds the key touched it.
   */
  userVerifiedPasskey?: boolean
}

/**
 * Finishes a sign-in the provider vouched for: the `signIn` callback, then
 * `persist` (the flow's own rules for users and accounts), the second-factor
 * gate (a user with a second factor goes to the two-factor step instead), the
 * session, the `signIn` event and the redirect to the callback URL (or
 * `pages.newUser`).
 */
export async function completeSignIn<I extends ProviderIdentity>(
  ctx: RequestContext,
  identity: I,
  persist: Persist<I>,
  options: CompleteSignInOptions = {},
): Promise<ResponseInternal> {
  const { signInUser, userVerifiedPasskey, ...asked } = options
  const elsewhere = await askSignIn(ctx, {
    user: signInUser ?? identity.user,
    account: identity.account,
    profile: identity.profile,
    ...asked,
  })
  if (elsewhere) return elsewhere

  const { user, isNewUser } = await persist(ctx, identity)
  const signIn = { user, account: identity.account, profile: identity.profile, isNewUser }
  const callbackUrl = await resolveCallbackUrl(ctx)
  // The one second-factor gate: a user with a second factor gets no session yet.
  const pending = await secondFactorGate(ctx, signIn, callbackUrl, { userVerifiedPasskey })
  if (pending) return pending
  return startSession(ctx, signIn, callbackUrl)
}

/**
 * The session, the `signIn` event and the redirect: the end of a sign-in,
 * right after the first factor or after the second (`two-factor/flow.ts`).
 */
export async function startSession(
  ctx: RequestContext,
  signIn: NewSessionParams,
  callbackUrl: string,
): Promise<ResponseInternal> {
  const { config } = ctx
  const { user, account, profile, isNewUser } = signIn
  await sessionStrategy(ctx).create(ctx, { user, account, profile, isNewUser })
  await fireEvent(ctx, "signIn", { user, account, profile, isNewUser })

  // The flow is over: the remembered callback URL must not steer a later sign-in.
  if (ctx.request.cookies[ctx.cookieOptions.callbackUrl.name] !== undefined)
    ctx.cookies.push(expiredCookie(ctx.cookieOptions.callbackUrl))
  if (isNewUser && config.pages.newUser) {
    // As configured, as Auth.js sends it (a relative path stays relative).
    const separator = config.pages.newUser.includes("?") ? "&" : "?"
    return {
      redirect: `${config.pages.newUser}${separator}${new URLSearchParams({ callbackUrl })}`,
    }
  }
  return { redirect: callbackUrl }
}
