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
import type { AdapterAccount, AdapterUser } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { AccountNotLinked, OAuthAccountNotLinked } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { fireEvent } from "../../lib/events.js"
import { sessionStrategy } from "../../session/index.js"
import type { ProviderIdentity, SignInUser } from "./persist.js"
import { webauthnUser } from "../webauthn/persist.js"

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

async function linkTo(
  ctx: RequestContext,
  user: AdapterUser,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  const account: AdapterAccount = { ...identity.account, userId: user.id } as AdapterAccount
  await callAdapter(ctx.config, "linkAccount", account)
  await fireEvent(ctx, "linkAccount", { user, account, profile: identity.user })
  return { user, isNewUser: false }
}

/**
 * Credentials: the user `authorize` returned, created on first sight so database
 * sessions can point at it. Its e-mail must not belong to another stored user:
 * `authorize` vouches for its own user, not for whoever registered that address.
 */
async function credentialsUser(
  ctx: RequestContext,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  const existing = await callAdapter(ctx.config, "getUser", identity.account.providerAccountId)
  if (existing) return { user: existing, isNewUser: false }
  const email = identity.user.email?.trim().toLowerCase()
  if (email && (await callAdapter(ctx.config, "getUserByEmail", email))) {
    throw new AccountNotLinked("authorize returned a new user whose e-mail belongs to another user")
  }
  const user = await callAdapter(ctx.config, "createUser", {
    ...newUser({ ...identity, user: { ...identity.user, email: email ?? null } }, null),
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
    const user = await callAdapter(ctx.config, "updateUser", {
      id: existing.id,
      emailVerified: new Date(),
    })
    await fireEvent(ctx, "updateUser", { user })
    return { user, isNewUser: false }
  }
  const user = await callAdapter(
    ctx.config,
    "createUser",
    newUser({ ...identity, user: { ...identity.user, email } }, new Date()),
  )
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
    const settings = config.providersById.get(provider) as
      { allowDangerousEmailAccountLinking?: boolean } | undefined
    if (!settings?.allowDangerousEmailAccountLinking) {
      throw new OAuthAccountNotLinked(
        "Another user already has this e-mail address; sign in as them to link this account",
      )
    }
    return linkTo(ctx, byEmail, identity)
  }
  const user = newUser({ ...identity, user: { ...identity.user, email: email ?? null } }, null)
  const account = { ...identity.account, userId: user.id } as AdapterAccount
  if (config.adapter?.createUserAndAccount) {
    const result = await callAdapter(config, "createUserAndAccount", user, account)
    if (!result.created) return { user: result.user, isNewUser: false }
    await fireEvent(ctx, "createUser", { user: result.user })
    await fireEvent(ctx, "linkAccount", {
      user: result.user,
      account: result.account,
      profile: identity.user,
    })
    return { user: result.user, isNewUser: true }
  }
  return createThenLink(ctx, user, account, identity)
}

/**
 * Without `createUserAndAccount` the two writes cannot share a transaction. If
 * the link fails, the user just created is deleted again, so a retry does not
 * find a user without its account (and refuse it as `OAuthAccountNotLinked`).
 * Events fire only once both writes stood.
 */
async function createThenLink(
  ctx: RequestContext,
  user: AdapterUser,
  account: AdapterAccount,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  const { config } = ctx
  const created = await callAdapter(config, "createUser", user)
  const linked = { ...account, userId: created.id }
  try {
    await callAdapter(config, "linkAccount", linked)
  } catch (error) {
    if (config.adapter?.deleteUser) {
      await callAdapter(config, "deleteUser", created.id).catch((cleanup: Error) =>
        config.logger.error(cleanup),
      )
    }
    throw error
  }
  await fireEvent(ctx, "createUser", { user: created })
  await fireEvent(ctx, "linkAccount", { user: created, account: linked, profile: identity.user })
  return { user: created, isNewUser: true }
}

export async function linkOrRegister(
  ctx: RequestContext,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  switch (identity.account.type) {
    case "credentials":
      return credentialsUser(ctx, identity)
    case "email":
      return emailUser(ctx, identity)
    case "webauthn":
      return webauthnUser(ctx, identity)
    default:
      return providerUser(ctx, identity)
  }
}
