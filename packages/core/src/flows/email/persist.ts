/**
 * How an e-mail sign-in is stored: the link proved the address, so the user
 * who signs in holds it verified. See `sign-in/email-identity.ts` for what
 * happens to an account that claimed the address without proof. Two first sign-ins of one
 * address at once (two links, a link and a code) end as one user: the unique e-mail column
 * refuses the second `createUser`, which then signs in as the first one's user.
 * @module
 */
import type { AdapterUser } from "../../adapters.js"
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
  let user: AdapterUser
  try {
    user = await callAdapter(
      ctx.config,
      "createUser",
      newUser({ ...identity, user: { ...identity.user, email } }, new Date()),
    )
  } catch (error) {
    return { user: await concurrentHolder(ctx, email, error), isNewUser: false }
  }
  return registered(ctx, user)
}

/**
 * After `createUser` failed: the user a concurrent first sign-in of the same address (a second
 * link, a code) created meanwhile, which the unique e-mail column refused this one for. That
 * user holds the address verified, as the proof in hand would have found it a moment later, so
 * this sign-in is theirs. Anything else is the original failure, thrown as it was.
 */
async function concurrentHolder(
  ctx: RequestContext,
  email: string,
  failure: unknown,
): Promise<AdapterUser> {
  const holder = await holderOf(ctx, email).catch(() => null)
  if (holder?.verified) return holder.user
  throw failure
}
