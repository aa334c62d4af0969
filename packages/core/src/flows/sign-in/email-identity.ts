/**
 * E-mail addresses as identity: an address nobody proved owning never
 * identifies an account.
 *
 * A user's address is verified when the user proved it (an e-mail sign-in
 * link) or a provider that checks addresses vouched for it (`verifiedEmail`).
 * Only a verified address finds a user by e-mail (for e-mail sign-in, for
 * account linking). An address given without proof (at passkey sign-up, by a
 * provider that does not verify) is stored as a claim (`emailVerified: null`)
 * that matches nothing.
 *
 * When someone proves an address another account holds unverified, the claim
 * is released (that account's e-mail becomes `null`) and the one who proved it
 * gets an account of their own: they inherit none of the credentials (passkeys,
 * linked accounts, sessions) added to the claiming account before anyone
 * proved the address, and the claiming account's sessions end. Only when the claiming account itself is the one signed
 * in does the proof verify its address in place.
 * @module
 */
import type { AdapterUser } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { callAdapter } from "../../lib/adapter.js"
import { fireEvent } from "../../lib/events.js"
import { revokeSessions } from "../../session/records.js"

/** The holder of `email`, and whether the address is verified on them. */
export async function holderOf(
  ctx: RequestContext,
  email: string,
): Promise<{ user: AdapterUser; verified: boolean } | null> {
  const user = await callAdapter(ctx.config, "getUserByEmail", email)
  return user ? { user, verified: !!user.emailVerified } : null
}

/** The user `email` identifies: its holder when the address is verified on them, else nobody. */
export async function userByVerifiedEmail(
  ctx: RequestContext,
  email: string,
): Promise<AdapterUser | null> {
  const holder = await holderOf(ctx, email)
  return holder?.verified ? holder.user : null
}

/**
 * Takes the unverified address off `holder`, so that the one who just proved
 * it can have it (the e-mail column is unique), and ends the holder's
 * sessions: a JWT session carries the address and would go on showing it, and
 * whoever claimed it must not stay signed in as its owner. Logged for the
 * operator: an account lost an address it claimed without proof.
 */
export async function releaseClaim(ctx: RequestContext, holder: AdapterUser): Promise<void> {
  const user = await callAdapter(ctx.config, "updateUser", {
    id: holder.id,
    email: null as unknown as string,
  })
  ctx.config.logger.debug("An unverified e-mail address was released from an account", {
    userId: holder.id,
  })
  await fireEvent(ctx, "updateUser", { user })
  if (ctx.config.sessionRecords) {
    await revokeSessions(ctx, { userId: holder.id }, "email-claim-released")
  }
}

/** Marks the address of `user` verified now (they proved it while signed in as themselves). */
export async function verifyInPlace(ctx: RequestContext, user: AdapterUser): Promise<AdapterUser> {
  const updated = await callAdapter(ctx.config, "updateUser", {
    id: user.id,
    emailVerified: new Date(),
  })
  await fireEvent(ctx, "updateUser", { user: updated })
  return updated
}

/**
 * The user an e-mail sign-in for `email` is about, as the `signIn` callback
 * sees it: the verified holder, or a user yet to be created.
 */
export async function emailSignInUser(ctx: RequestContext, email: string): Promise<AdapterUser> {
  return (
    (await userByVerifiedEmail(ctx, email)) ?? {
      id: crypto.randomUUID(),
      email,
      emailVerified: null,
    }
  )
}
