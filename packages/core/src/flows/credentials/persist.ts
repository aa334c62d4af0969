/**
 * How a credentials sign-in is stored. `authorize` owns its users: with JWT
 * sessions (or no adapter) nothing is written, as in Auth.js; with database
 * sessions the user `authorize` returned is created on first sight so a
 * session row can point at it (Auth.js refuses credentials with database
 * sessions; Tessera supports them).
 * @module
 */
import type { RequestContext } from "../../context.js"
import { AccountNotLinked } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { storedEmailAddress } from "../email/address.js"
import { newUser, registered } from "../sign-in/users.js"
import type { ProviderIdentity, SignInUser } from "../types.js"

export async function persistCredentials(
  ctx: RequestContext,
  identity: ProviderIdentity,
): Promise<SignInUser> {
  const { adapter, session } = ctx.config
  if (!adapter || session.strategy === "jwt") return { user: identity.user, isNewUser: false }
  return credentialsUser(ctx, identity)
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
  const existing = await storedCredentialsUser(ctx, identity)
  if (existing) return { user: existing, isNewUser: false }
  // Normalized as an e-mail sign-in address, never folded further: `toLowerCase()`
  // made `\u212Aevin@` (Kelvin sign, another mailbox) into `kevin@`, stored and shown
  // in the session as an address its owner never proved. An address e-mail sign-in
  // would refuse is stored as none (as a provider's is).
  const email = storedEmailAddress(identity.user.email)
  if (email && (await callAdapter(ctx.config, "getUserByEmail", email))) {
    throw new AccountNotLinked("authorize returned a new user whose e-mail belongs to another user")
  }
  const user = await callAdapter(ctx.config, "createUser", {
    ...newUser({ ...identity, user: { ...identity.user, email } }, null),
    id: identity.account.providerAccountId,
  })
  // An adapter that assigns ids of its own (Prisma's, Drizzle's) dropped `authorize`'s: the
  // account row (provider = the credentials provider's id) is how the next sign-in finds the
  // user. Without it that sign-in would find no user by id and the address taken (refused), or
  // with no address, create the user again.
  if (user.id !== identity.account.providerAccountId && ctx.config.adapter?.linkAccount)
    await callAdapter(ctx.config, "linkAccount", { ...identity.account, userId: user.id })
  return registered(ctx, user)
}

/** The user `authorize` named: stored under its id, or linked by the account row above. */
async function storedCredentialsUser(ctx: RequestContext, identity: ProviderIdentity) {
  const { account } = identity
  const user = await callAdapter(ctx.config, "getUser", account.providerAccountId)
  if (user || !ctx.config.adapter?.getUserByAccount) return user
  return callAdapter(ctx.config, "getUserByAccount", {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
  })
}
