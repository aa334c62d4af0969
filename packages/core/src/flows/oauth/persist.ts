/**
 * Users and accounts for an OAuth/OIDC sign-in, decided per sign-in:
 *
 * - the provider account is linked already: its user signs in. If someone
 *   else is signed in and started this sign-in to link it, refuse: the
 *   account belongs to another user.
 * - the signed-in user started this sign-in: the account is linked to them,
 *   if they signed in within `session.recentSignInAge` (else
 *   `RecentSignInRequired`: a copied session must not add a sign-in method).
 *   (A sign-in started by someone else, or by nobody, never links to the
 *   session it lands in; see `binding.ts`.)
 * - the address is verified by the provider (`verifiedEmail`) and a user holds
 *   it verified: refuse with `OAuthAccountNotLinked`, unless the provider sets
 *   `allowDangerousEmailAccountLinking`, which links to them. A user holding it
 *   unverified loses the claim (see `sign-in/email-identity.ts`).
 * - the address is not verified: it never matches anyone. When a user holds it
 *   verified, refuse (`OAuthAccountNotLinked`: sign in the way you did
 *   before); when someone claims it unverified, the new user gets no address.
 * - otherwise a new user is created with the account, in one transaction when
 *   the adapter offers `createUserAndAccount`. If a concurrent sign-in gave the
 *   address to a user meanwhile (the unique e-mail column refuses this one), the
 *   sign-in is decided again, once, by the rules above; so is a link that a
 *   concurrent sign-in of the same provider account made first.
 *
 * Without an adapter the provider's user is the user.
 * @module
 */
import type { AdapterAccountTokens, AdapterUser } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { OAuthAccountNotLinked } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { sessionStrategy } from "../../session/index.js"
import { staleSignIn } from "../../session/recent-sign-in.js"
import { holderOf, releaseClaim } from "../sign-in/email-identity.js"
import { createUserWithAccount, decideAgain, linkTo, newUser } from "../sign-in/users.js"
import type { Account } from "../../types.js"
import type { ProviderIdentity, ResolvedOAuthProvider, SignInUser } from "../types.js"
import { bindingOf } from "./binding.js"

export interface OAuthIdentity extends ProviderIdentity {
  /**
   * The account as the adapter stores it (what the provider's `account()` keeps); `account`,
   * which the callbacks and events get, holds the whole token response, as in Auth.js.
   */
  storedAccount: Account
  /** True when the provider vouches for `user.email` (already normalised). */
  emailVerified: boolean
  /** Who started the sign-in (`binding.ts`); `undefined` without check cookies. */
  startedBy: string | undefined
}

export async function persistOAuth(
  ctx: RequestContext,
  identity: OAuthIdentity,
): Promise<SignInUser> {
  if (!ctx.config.adapter) return { user: identity.user, isNewUser: false }
  return providerUser(ctx, { ...identity, account: identity.storedAccount })
}

/** The signed-in user's id when that user started this sign-in, else `null`. */
async function linkingUserId(ctx: RequestContext, identity: OAuthIdentity): Promise<string | null> {
  const currentUserId = await sessionStrategy(ctx).currentUserId(ctx)
  if (!currentUserId || identity.startedBy === undefined) return null
  return identity.startedBy === (await bindingOf(ctx, currentUserId)) ? currentUserId : null
}

async function providerUser(
  ctx: RequestContext,
  identity: OAuthIdentity,
  mayRetry = true,
): Promise<SignInUser> {
  const { config } = ctx
  const { provider, providerAccountId } = identity.account
  const linkingId = await linkingUserId(ctx, identity)
  const linked = await callAdapter(config, "getUserByAccount", { provider, providerAccountId })
  if (linked) {
    if (linkingId && linkingId !== linked.id) {
      throw new OAuthAccountNotLinked("The account is already linked to another user")
    }
    await storeNewTokens(ctx, identity)
    return { user: linked, isNewUser: false }
  }
  if (linkingId) {
    const current = await callAdapter(config, "getUser", linkingId)
    if (current) {
      // A new sign-in method for this user: not from a copied, long-lived session.
      const refusal = await staleSignIn(ctx)
      if (refusal) throw refusal
      return linkOnce(ctx, current, identity, mayRetry)
    }
  }
  const email = identity.user.email ?? null
  const holder = email ? await holderOf(ctx, email) : null
  if (holder?.verified) return toVerifiedHolder(ctx, identity, holder.user, mayRetry)
  // An unverified address held by no one is stored as a claim; one held by a claim is left out.
  let stored = email
  if (holder && identity.emailVerified) await releaseClaim(ctx, holder.user)
  else if (holder) stored = null
  const user = newUser(
    { ...identity, user: { ...identity.user, email: stored } },
    stored && identity.emailVerified ? new Date() : null,
  )
  try {
    return await createUserWithAccount(ctx, user, identity)
  } catch (failure) {
    if (!mayRetry) throw failure
    return decideAgain(
      failure,
      async () =>
        (stored !== null && (await holderOf(ctx, stored)) !== null) ||
        (await callAdapter(config, "getUserByAccount", { provider, providerAccountId })) !== null,
      () => providerUser(ctx, identity, false),
    )
  }
}

/**
 * A user holds the address verified: refused (`OAuthAccountNotLinked`), unless the provider
 * vouches for it and allows dangerous linking, which links the account to them.
 */
async function toVerifiedHolder(
  ctx: RequestContext,
  identity: OAuthIdentity,
  holder: AdapterUser,
  mayRetry: boolean,
): Promise<SignInUser> {
  const settings = ctx.config.flows.get(identity.account.provider)?.provider as
    ResolvedOAuthProvider | undefined
  if (!identity.emailVerified || !settings?.allowDangerousEmailAccountLinking) {
    throw new OAuthAccountNotLinked(
      "Another user already has this e-mail address; sign in as them to link this account",
    )
  }
  return linkOnce(ctx, holder, identity, mayRetry)
}

/**
 * Links the identity's account to `user`. If a concurrent sign-in of the same provider account
 * (another browser, another device) linked it meanwhile (the unique (provider, account id)
 * refuses this one), the sign-in is decided again, once, as if it had come second: the linked
 * user signs in, or the linking user is refused when it is someone else's.
 */
async function linkOnce(
  ctx: RequestContext,
  user: AdapterUser,
  identity: OAuthIdentity,
  mayRetry: boolean,
): Promise<SignInUser> {
  try {
    return await linkTo(ctx, user, identity)
  } catch (failure) {
    if (!mayRetry) throw failure
    const { provider, providerAccountId } = identity.account
    return decideAgain(
      failure,
      async () =>
        (await callAdapter(ctx.config, "getUserByAccount", { provider, providerAccountId })) !==
        null,
      () => providerUser(ctx, identity, false),
    )
  }
}

/**
 * A sign-in with an account already linked brings new tokens: store them
 * (when the adapter can), so `getAccessToken` works again after a refused
 * refresh token, and the ID Token hint of RP-initiated logout is the latest.
 * A refresh token the provider did not send again is kept.
 */
async function storeNewTokens(ctx: RequestContext, identity: OAuthIdentity): Promise<void> {
  if (!ctx.config.adapter?.updateAccount) return
  const { account } = identity
  const tokens: AdapterAccountTokens = {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
  }
  for (const field of [
    "access_token",
    "refresh_token",
    "id_token",
    "scope",
    "token_type",
  ] as const) {
    const value = account[field]
    if (typeof value === "string") tokens[field] = value
  }
  if (typeof account.access_token === "string") {
    tokens.expires_at = typeof account.expires_at === "number" ? account.expires_at : null
  }
  if (Object.keys(tokens).length > 2) await callAdapter(ctx.config, "updateAccount", tokens)
}
