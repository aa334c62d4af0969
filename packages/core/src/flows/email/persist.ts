/**
 * How an e-mail sign-in is stored: the link proved the address, so the user
 * who signs in holds it verified. See `sign-in/email-identity.ts` for what
 * happens to an account that claimed the address without proof.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { callAdapter } from "../../lib/adapter.js"
import { sessionStrategy } from "../../session/index.js"
import { holderOf, releaseClaim, verifyInPlace } from "../sign-in/email-identity.js"
import { newUser, registered } from "../sign-in/users.js"
import type { ProviderIdentity, SignInUser } from "../types.js"

export async function persistEmail(
  ctx: RequestContext,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  const email = identity.account.providerAccountId
  const holder = await holderOf(ctx, email)
  if (holder?.verified) return { user: holder.user, isNewUser: false }
  if (holder) {
    // The claiming account proves its own address only while signed in as itself.
    const currentUserId = await sessionStrategy(ctx).currentUserId(ctx)
    if (currentUserId === holder.user.id) {
      return { user: await verifyInPlace(ctx, holder.user), isNewUser: false }
    }
    await releaseClaim(ctx, holder.user)
  }
  const user = await callAdapter(
    ctx.config,
    "createUser",
    newUser({ ...identity, user: { ...identity.user, email } }, new Date()),
  )
  return registered(ctx, user)
}
