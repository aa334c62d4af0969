/**
 * The second step's callback: checks the code against the pending sign-in's
 * user and starts the session the first factor earned. Loaded with the first
 * code posted (`flow.ts` is what a resolved configuration holds).
 * @module
 */
import type { AdapterUser } from "../adapters.js"
import type { RequestContext } from "../context.js"
import { TwoFactorExpired } from "../errors.js"
import { startSession } from "../flows/sign-in/complete.js"
import { callAdapter } from "../lib/adapter.js"
import type { ResponseInternal, User } from "../types.js"
import { clearPending, consumePending, requirePending } from "./pending.js"
import { verifySecondFactor } from "./verify.js"

export async function completeTwoFactor(ctx: RequestContext): Promise<ResponseInternal> {
  const pending = await requirePending(ctx)
  const userId = pending.sub
  const factor = await callAdapter(ctx.config, "getTwoFactor", userId)
  // Turned off meanwhile: the first factor is old news, start again.
  if (!factor?.enabledAt) throw new TwoFactorExpired("The user's second factor is gone")
  await verifySecondFactor(ctx, factor, ctx.request.body?.code, { recoveryCodes: true })
  await consumePending(ctx, pending)
  clearPending(ctx)
  // The stored user as it is now; credentials users with JWT sessions are not stored: as `authorize` said.
  const stored: AdapterUser | null = await callAdapter(ctx.config, "getUser", userId)
  let user: User | AdapterUser
  if (stored) user = stored
  else if (pending.account?.type === "credentials") user = pending.user
  else throw new TwoFactorExpired("The user no longer exists")
  return startSession(
    ctx,
    { user, account: pending.account, profile: pending.profile, isNewUser: pending.isNewUser },
    pending.callbackUrl,
  )
}
