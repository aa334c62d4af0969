/**
 * Users and accounts in the database, decided per sign-in:
 *
 * - an account already linked: its user signs in (if someone else is signed in,
 *   refuse: the account belongs to another user);
 * - someone is signed in: the new account is linked to them;
 * - the e-mail matches a user: refuse with `OAuthAccountNotLinked`, unless the
 *   provider sets `allowDangerousEmailAccountLinking`;
 * - otherwise a new user is created with the account, in one transaction when
 *   the adapter offers `createUserAndAccount`.
 * @module
 */
import type { AdapterAccount, AdapterUser } from "../adapters.js"
import type { RequestContext } from "../context.js"
import { OAuthAccountNotLinked } from "../errors.js"
import { callAdapter } from "../lib/adapter.js"
import { fireEvent } from "../lib/events.js"
import { sessionStrategy } from "../session/index.js"
import type { ProviderIdentity, SignInUser } from "./persist.js"

function newUser(identity: ProviderIdentity, emailVerified: Date | null): AdapterUser {
  const { id: _providerId, ...user } = identity.user
  return {
    ...user,
    id: crypto.randomUUID(),
    name: user.name ?? null,
    image: user.image ?? null,
    email: (user.email ?? null) as string,
    emailVerified,
  }
}

async function registered(ctx: RequestContext, user: AdapterUser): Promise<SignInUser> {
  await fireEvent(ctx, "createUser", { user })
  return { user, isNewUser: true }
}

async function linkTo(ctx: RequestContext, user: AdapterUser, identity: ProviderIdentity): Promise<SignInUser> {
  const account: AdapterAccount = { ...identity.account, userId: user.id } as AdapterAccount
  await callAdapter(ctx.config, "linkAccount", account)
  await fireEvent(ctx, "linkAccount", { user, account, profile: identity.user })
  return { user, isNewUser: false }
}

/** Credentials: the user `authorize` returned, created on first sight so database sessions can point at it. */
async function credentialsUser(ctx: RequestContext, identity: ProviderIdentity): Promise<SignInUser> {
  const existing = await callAdapter(ctx.config, "getUser", identity.account.providerAccountId)
  if (existing) return { user: existing, isNewUser: false }
  const user = await callAdapter(ctx.config, "createUser", {
    ...newUser(identity, null),
    id: identity.account.providerAccountId,
  })
  return registered(ctx, user)
}

/** E-mail: the address was just proven, so the user (new or not) has a verified e-mail. */
async function emailUser(ctx: RequestContext, identity: ProviderIdentity): Promise<SignInUser> {
  const email = identity.account.providerAccountId
  const existing = await callAdapter(ctx.config, "getUserByEmail", email)
  if (existing) {
    if (existing.emailVerified) return { user: existing, isNewUser: false }
    const user = await callAdapter(ctx.config, "updateUser", { id: existing.id, emailVerified: new Date() })
    await fireEvent(ctx, "updateUser", { user })
    return { user, isNewUser: false }
  }
  const user = await callAdapter(ctx.config, "createUser", newUser({ ...identity, user: { ...identity.user, email } }, new Date()))
  return registered(ctx, user)
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
    const allow = (ctx.provider as { allowDangerousEmailAccountLinking?: boolean } | undefined)?.allowDangerousEmailAccountLinking
    if (!allow) throw new OAuthAccountNotLinked("Another account already uses this e-mail address")
    return linkTo(ctx, byEmail, identity)
  }
  const user = newUser({ ...identity, user: { ...identity.user, email: email ?? null } }, null)
  const account = { ...identity.account, userId: user.id } as AdapterAccount
  if (config.adapter?.createUserAndAccount) {
    const result = await callAdapter(config, "createUserAndAccount", user, account)
    if (!result.created) return { user: result.user, isNewUser: false }
    await fireEvent(ctx, "createUser", { user: result.user })
    await fireEvent(ctx, "linkAccount", { user: result.user, account: result.account, profile: identity.user })
    return { user: result.user, isNewUser: true }
  }
  const created = await callAdapter(config, "createUser", user)
  await fireEvent(ctx, "createUser", { user: created })
  await linkTo(ctx, created, identity)
  return { user: created, isNewUser: true }
}

export async function linkOrRegister(ctx: RequestContext, identity: ProviderIdentity): Promise<SignInUser> {
  switch (identity.account.type) {
    case "credentials":
      return credentialsUser(ctx, identity)
    case "email":
      return emailUser(ctx, identity)
    default:
      return providerUser(ctx, identity)
  }
}
