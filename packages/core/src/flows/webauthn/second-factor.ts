/**
 * Passkeys as the second factor of a pending sign-in: which of the pending
 * user's authenticators can answer through a WebAuthn provider. Only those
 * linked to the user through an account with that provider, as a passkey
 * sign-in requires (`callback.ts`, `ownerThroughAccount`): a passkey removed by
 * unlinking its account, or registered through another provider, is not
 * offered, and would be refused anyway. Nor is the passkey that was the first
 * factor itself (a passkey sign-in short of `passkeysSatisfyTwoFactor`): the
 * same credential twice is one factor, not two.
 * @module
 */
import type { AdapterAuthenticator } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { callAdapter } from "../../lib/adapter.js"
import type { ResolvedWebAuthnProvider, SecondFactorPending } from "../types.js"

/** The credential id of the passkey that was the pending sign-in's first factor, if one was. */
export function firstFactorPasskey(pending: SecondFactorPending): string | undefined {
  return pending.account?.type === "webauthn" ? pending.account.providerAccountId : undefined
}

/** The pending user's passkeys that sign in through `provider`, but the first factor's. */
export async function secondFactorPasskeys(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  pending: SecondFactorPending,
): Promise<AdapterAuthenticator[]> {
  const userId = pending.sub
  const first = firstFactorPasskey(pending)
  const authenticators = (
    await callAdapter(ctx.config, "listAuthenticatorsByUserId", userId)
  ).filter((a) => a.credentialID !== first)
  const linked = await Promise.all(
    authenticators.map(async (a) => {
      const account = await callAdapter(ctx.config, "getAccount", a.providerAccountId, provider.id)
      return account?.userId === userId
    }),
  )
  return authenticators.filter((_, i) => linked[i])
}
