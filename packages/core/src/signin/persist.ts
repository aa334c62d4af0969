/**
 * Turns the identity a provider vouched for into the user who signs in.
 *
 * Without an adapter the provider's user is the user. With an adapter this is
 * where users are created and accounts linked; see `signin/link-account.ts`.
 * @module
 */
import type { RequestContext } from "../context.js"
import type { AdapterUser } from "../adapters.js"
import type { Account, Profile, User } from "../types.js"
import { linkOrRegister } from "./link-account.js"

export interface ProviderIdentity {
  /** The user as the provider describes them (profile callback, authorize, e-mail address). */
  user: User
  account: Account
  profile?: Profile
}

export interface SignInUser {
  user: User | AdapterUser
  isNewUser: boolean
}

export async function persistSignIn(ctx: RequestContext, identity: ProviderIdentity): Promise<SignInUser> {
  if (!ctx.config.adapter) return { user: identity.user, isNewUser: false }
  return linkOrRegister(ctx, identity)
}
