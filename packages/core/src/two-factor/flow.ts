/**
 * The second step of a sign-in, as a pseudo-provider: `POST
 * callback/two-factor` with `code` (a TOTP code or a recovery code) and the
 * CSRF token finishes the sign-in the pending cookie holds. It goes through
 * the route table like every callback (CSRF, and the `twoFactor` rate limit
 * keyed by the pending user). Failures go back to the two-factor page; an
 * expired or missing pending sign-in to the sign-in page.
 * @module
 */
import type { AdapterUser } from "../adapters.js"
import type { RequestContext } from "../context.js"
import { TwoFactorExpired } from "../errors.js"
import { startSession } from "../flows/sign-in/complete.js"
import type { ProviderFlow } from "../flows/types.js"
import { callAdapter } from "../lib/adapter.js"
import { html } from "../pages/html.js"
import type { ResponseInternal, User } from "../types.js"
import { TWO_FACTOR_ID } from "./id.js"
import { twoFactorPageUrl } from "./gate.js"
import { clearPending, consumePending, requirePending } from "./pending.js"
import { verifySecondFactor } from "./verify.js"

async function completeTwoFactor(ctx: RequestContext): Promise<ResponseInternal> {
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

export const twoFactorFlow: ProviderFlow = {
  provider: { id: TWO_FACTOR_ID, type: "two-factor", name: "Two-factor authentication" },
  type: "two-factor",
  // Nothing to start: the step follows a first factor.
  signIn: async (ctx) => ({ redirect: twoFactorPageUrl(ctx) }),
  callback: { methods: ["POST"], csrf: true, handle: completeTwoFactor },
  // Never listed on the sign-in page (it is not in `providers`).
  section: () => html``,
  failurePage: (ctx, error, value) =>
    error instanceof TwoFactorExpired ? undefined : twoFactorPageUrl(ctx, value),
}
