/**
 * Turns the identity a provider vouched for into the user who signs in.
 *
 * Without an adapter the provider's user is the user. With an adapter this is
 * where users are created and accounts linked; see `signin/link-account.ts`.
 * Credentials sign-ins work with database sessions too (Auth.js refuses them):
 * the user `authorize` returns is stored on first sight so a session row can
 * point at it.
 * @module
 */
import type { RequestContext } from "../../context.js"
import type { AdapterUser } from "../../adapters.js"
import type { Account, Profile, User } from "../../types.js"
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

export async function persistSignIn(
  ctx: RequestContext,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  const { adapter, session } = ctx.config
  if (!adapter) return { user: identity.user, isNewUser: false }
  // `authorize` owns its users. Only a database session needs a row to point at;
  // with JWT sessions credentials sign-ins leave the database alone, as in Auth.js.
  if (identity.account.type === "credentials" && session.strategy === "jwt")
    return { user: identity.user, isNewUser: false }
  return linkOrRegister(ctx, identity)
}
