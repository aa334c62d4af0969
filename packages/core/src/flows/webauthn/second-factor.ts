/**
 * Passkeys as the second factor of a pending sign-in: which of the pending
 * user's authenticators can answer through a WebAuthn provider. Only those
 * linked to the user through an account with that provider, as a passkey
 * sign-in requires (`callback.ts`, `ownerThroughAccount`): a passkey removed by
 * unlinking its account, or registered through another provider, is not
 * offered, and would be refused anyway.
 * @module
 */
import type { AdapterAuthenticator } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { callAdapter } from "../../lib/adapter.js"
import type { ResolvedWebAuthnProvider } from "../types.js"

/** `userId`'s passkeys that sign in through `provider`. */
export async function secondFactorPasskeys(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
  userId: string,
): Promise<AdapterAuthenticator[]> {
  const authenticators = await callAdapter(ctx.config, "listAuthenticatorsByUserId", userId)
  const linked = await Promise.all(
    authenticators.map(async (a) => {
      const account = await callAdapter(ctx.config, "getAccount", a.providerAccountId, provider.id)
      return account?.userId === userId
    }),
  )
  return authenticators.filter((_, i) => linked[i])
}
