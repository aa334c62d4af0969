/**
 * How an e-mail sign-in is stored: the link proved the address, so the user
 * who signs in holds it verified. See `sign-in/email-identity.ts` for what
 * happens to an account that claimed the address without proof. Two first sign-ins of one
 * address at once (two links, a link and a code, a link and a provider) end as one user: the
 * unique e-mail column refuses the second `createUser`, which is then decided again as if it
 * had come second (the first one's user, or its unverified claim released).
 * @module
 */
import type { AdapterUser } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { callAdapter } from "../../lib/adapter.js"
import { sessionStrategy } from "../../session/index.js"
import { holderOf, releaseClaim, verifyInPlace } from "../sign-in/email-identity.js"
import { decideAgain, newUser, registered } from "../sign-in/users.js"
import type { ProviderIdentity, SignInUser } from "../types.js"

export function persistEmail(ctx: RequestContext, identity: ProviderIdentity): Promise<SignInUser> {
  return decide(ctx, identity, true)
}

async function decide(
  ctx: RequestContext,
  identity: ProviderIdentity,
  mayRetry: boolean,
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
  let user: AdapterUser
  try {
    user = await callAdapter(
      ctx.config,
      "createUser",
      newUser({ ...identity, user: { ...identity.user, email } }, new Date()),
    )
  } catch (failure) {
    if (!mayRetry) throw failure
    return decideAgain(
      failure,
      async () => (await holderOf(ctx, email)) !== null,
      () => decide(ctx, identity, false),
    )
  }
  return registered(ctx, user)
}
