/**
 * The building blocks every flow's `persist` uses to store a sign-in: a new
 * user from a provider identity, linking an account, creating a user with its
 * account (in one transaction when the adapter can), and the events they fire.
 * The rules of who may be linked to whom live in each flow's persist module.
 * @module
 */
import type { AdapterAccount, AdapterUser } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { AdapterError } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { fireEvent } from "../../lib/events.js"
import type { ProviderIdentity, SignInUser } from "../types.js"

/** A user to create from what the provider said; a new id, never the provider's. */
export function newUser(identity: ProviderIdentity, emailVerified: Date | null): AdapterUser {
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

/** A user was created: the `createUser` event. */
export async function registered(ctx: RequestContext, user: AdapterUser): Promise<SignInUser> {
  await fireEvent(ctx, "createUser", { user })
  return { user, isNewUser: true }
}

/** Links the identity's account to `user`: the `linkAccount` event. */
export async function linkTo(
  ctx: RequestContext,
  user: AdapterUser,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  const account: AdapterAccount = { ...identity.account, userId: user.id }
  await callAdapter(ctx.config, "linkAccount", account)
  await fireEvent(ctx, "linkAccount", { user, account, profile: identity.user })
  return { user, isNewUser: false }
}

/**
 * A new user with the identity's account, in one transaction when the adapter
 * offers `createUserAndAccount`.
 */
export async function createUserWithAccount(
  ctx: RequestContext,
  user: AdapterUser,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  const { config } = ctx
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

/**
 * After creating a user failed in the database: if a concurrent first sign-in of the same
 * identity wrote its rows meanwhile (`wroteMeanwhile`: the look-up now finds them; the unique
 * e-mail column refused this one), `decide` the sign-in again, once, as if it had come second.
 * Otherwise (a connection lost, a timeout, the database down) the failure stands as it was, and
 * nothing is tried twice. A retry that fails in the database reports the first failure; a
 * refusal it decides (`OAuthAccountNotLinked`) is the answer.
 */
export async function decideAgain<T>(
  failure: unknown,
  wroteMeanwhile: () => Promise<boolean>,
  decide: () => Promise<T>,
): Promise<T> {
  if (!(failure instanceof AdapterError)) throw failure
  if (!(await wroteMeanwhile().catch(() => false))) throw failure
  try {
    return await decide()
  } catch (error) {
    throw error instanceof AdapterError ? failure : error
  }
}
