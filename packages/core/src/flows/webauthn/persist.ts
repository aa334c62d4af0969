/**
 * The database side of a passkey sign-in, run once the `signIn` callback has
 * agreed, so a refused sign-in writes nothing.
 *
 * The callback verified the response and passes, with the identity, what to
 * store: for a registration, the new authenticator and its user (new, or the
 * signed-in one); for an authentication, the user the passkey belongs to.
 * @module
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { AccountNotLinked, WebAuthnVerificationError } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { fireEvent } from "../../lib/events.js"
import type { ProviderIdentity, SignInUser } from "../types.js"

export type PendingWebAuthnSignIn =
  | {
      kind: "register"
      isNewUser: boolean
      user: AdapterUser
      authenticator: Omit<AdapterAuthenticator, "userId">
    }
  | { kind: "authenticate"; user: AdapterUser }

/** A passkey sign-in's identity: what the provider vouched for, and what to store. */
export interface WebAuthnIdentity extends ProviderIdentity {
  webauthn: PendingWebAuthnSignIn
}

/** Undoes a write whose follow-up failed; a failure to undo is logged, the original error wins. */
async function undo(ctx: RequestContext, run: () => Promise<unknown>): Promise<void> {
  await run().catch((error: Error) => ctx.config.logger.error(error))
}

async function newUserWithAccount(
  ctx: RequestContext,
  user: AdapterUser,
  account: AdapterAccount,
): Promise<AdapterUser> {
  const { config } = ctx
  // Whoever holds the address (proven or not), a new passkey account cannot take it. The
  // options did not say whether the address was in use; only a completed ceremony learns it.
  if (await callAdapter(config, "getUserByEmail", user.email)) {
    // As for OAuth (`OAuthAccountNotLinked`): sign in the way you did before, then add the passkey.
    const refused = new AccountNotLinked(
      "An account already uses this e-mail address: sign in to it (with its passkey or an e-mail link), then add this passkey from there",
    )
    refused.code = "passkey"
    throw refused
  }
  if (config.adapter?.createUserAndAccount) {
    const result = await callAdapter(config, "createUserAndAccount", user, account)
    if (!result.created) throw new WebAuthnVerificationError("This passkey is registered already")
    return result.user
  }
  const created = await callAdapter(config, "createUser", user)
  try {
    await callAdapter(config, "linkAccount", { ...account, userId: created.id })
  } catch (error) {
    if (config.adapter?.deleteUser)
      await undo(ctx, async () => callAdapter(config, "deleteUser", created.id))
    throw error
  }
  return created
}

async function registerAuthenticator(
  ctx: RequestContext,
  identity: ProviderIdentity,
  entry: Extract<PendingWebAuthnSignIn, { kind: "register" }>,
): Promise<SignInUser> {
  const { config } = ctx
  const account = { ...identity.account, userId: entry.user.id } as AdapterAccount
  const user = entry.isNewUser
    ? await newUserWithAccount(ctx, entry.user, account)
    : (await callAdapter(config, "linkAccount", account), entry.user)
  const linked = { ...account, userId: user.id }
  try {
    await callAdapter(config, "createAuthenticator", { ...entry.authenticator, userId: user.id })
  } catch (error) {
    // Without its authenticator the new account is a dead end: take it back.
    if (entry.isNewUser && config.adapter?.deleteUser)
      await undo(ctx, async () => callAdapter(config, "deleteUser", user.id))
    else if (config.adapter?.unlinkAccount)
      await undo(ctx, async () => callAdapter(config, "unlinkAccount", linked))
    throw error
  }
  if (entry.isNewUser) await fireEvent(ctx, "createUser", { user })
  await fireEvent(ctx, "linkAccount", { user, account: linked, profile: user })
  return { user, isNewUser: entry.isNewUser }
}

/** Stores a verified passkey sign-in. */
export async function persistWebAuthn(
  ctx: RequestContext,
  identity: WebAuthnIdentity,
): Promise<SignInUser> {
  const entry = identity.webauthn
  if (entry.kind === "authenticate") return { user: entry.user, isNewUser: false }
  return registerAuthenticator(ctx, identity, entry)
}
