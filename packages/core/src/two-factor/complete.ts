/**
 * The second step's callback: checks the code (or the passkey's assertion)
 * against the pending sign-in's user and starts the session the first factor
 * earned, the same way whichever proved it. Loaded with the first
 * code posted (`flow.ts` is what a resolved configuration holds).
 * @module
 */
import type { AdapterUser } from "../adapters.js"
import type { RequestContext } from "../context.js"
import { InvalidRequest, TwoFactorExpired, WebAuthnVerificationError } from "../errors.js"
import { RequestError } from "../http/request.js"
import { startSession } from "../flows/sign-in/complete.js"
import { callAdapter } from "../lib/adapter.js"
import type { ResponseInternal, User } from "../types.js"
import { secondFactorFlows } from "./passkeys.js"
import { clearPending, consumePending, requirePending, type PendingClaims } from "./pending.js"
import { verifySecondFactor } from "./verify.js"

export async function completeTwoFactor(ctx: RequestContext): Promise<ResponseInternal> {
  const pending = await requirePending(ctx)
  const userId = pending.sub
  const factor = await callAdapter(ctx.config, "getTwoFactor", userId)
  // Turned off meanwhile: the first factor is old news, start again.
  if (!factor?.enabledAt) throw new TwoFactorExpired("The user's second factor is gone")
  const body = ctx.request.body ?? {}
  if (body.data !== undefined) await verifyPasskey(ctx, pending, body)
  else await verifySecondFactor(ctx, factor, body.code, { recoveryCodes: true })
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

/**
 * The second factor as a passkey: `data` (the assertion, as the passkey
 * sign-in posts it) and `provider` (the WebAuthn provider whose two-factor
 * options were asked for; the first one by default), checked by that
 * provider's flow.
 */
async function verifyPasskey(
  ctx: RequestContext,
  pending: PendingClaims,
  body: Record<string, unknown>,
): Promise<void> {
  if (body.code !== undefined)
    throw new RequestError(new InvalidRequest("Send a code or a passkey's answer, not both"), 400)
  const flows = secondFactorFlows(ctx)
  const flow =
    body.provider === undefined ? flows[0] : flows.find((f) => f.provider.id === body.provider)
  if (!flow?.secondFactor) throw new WebAuthnVerificationError("No passkey provider of that name")
  await flow.secondFactor.verify(ctx, pending)
}
