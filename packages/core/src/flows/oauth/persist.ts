/**
 * Users and accounts for an OAuth/OIDC sign-in, decided per sign-in:
 *
 * - an account already linked: its user signs in (if someone else is signed in,
 *   refuse: the account belongs to another user);
 * - someone is signed in: the new account is linked to them;
 * - the e-mail matches a user: refuse with `OAuthAccountNotLinked`, unless the
 *   provider sets `allowDangerousEmailAccountLinking`;
 * - otherwise a new user is created with the account, in one transaction when
 *   the adapter offers `createUserAndAccount`.
 *
 * Without an adapter the provider's user is the user.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { OAuthAccountNotLinked } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { sessionStrategy } from "../../session/index.js"
import { createUserWithAccount, linkTo, newUser } from "../sign-in/users.js"
import type { ProviderIdentity, ResolvedOAuthProvider, SignInUser } from "../types.js"

export async function persistOAuth(
  ctx: RequestContext,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  if (!ctx.config.adapter) return { user: identity.user, isNewUser: false }
  return providerUser(ctx, identity)
}

async function providerUser(ctx: RequestContext, identity: ProviderIdentity): Promise<SignInUser> {
  const { config } = ctx
  const { provider, providerAccountId } = identity.account
  const currentUserId = await sessionStrategy(ctx).currentUserId(ctx)
  const linked = await callAdapter(config, "getUserByAccount", { provider, providerAccountId })
  if (linked) {
    if (currentUserId && currentUserId !== linked.id) {
      throw new OAuthAccountNotLinked("The account is already linked to another user")
    }
    return { user: linked, isNewUser: false }
  }
  if (currentUserId) {
    const current = await callAdapter(config, "getUser", currentUserId)
    if (current) return linkTo(ctx, current, identity)
  }
  const email = identity.user.email?.trim().toLowerCase()
  const byEmail = email ? await callAdapter(config, "getUserByEmail", email) : null
  if (byEmail) {
    const settings = config.flows.get(provider)?.provider as ResolvedOAuthProvider | undefined
    if (!settings?.allowDangerousEmailAccountLinking) {
      throw new OAuthAccountNotLinked(
        "Another user already has this e-mail address; sign in as them to link this account",
      )
    }
    return linkTo(ctx, byEmail, identity)
  }
  const user = newUser({ ...identity, user: { ...identity.user, email: email ?? null } }, null)
  return createUserWithAccount(ctx, user, identity)
}
