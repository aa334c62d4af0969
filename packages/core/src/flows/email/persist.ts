/**
 * How an e-mail sign-in is stored: the address was just proven by the link,
 * so its user (new or not) has a verified e-mail.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { callAdapter } from "../../lib/adapter.js"
import { fireEvent } from "../../lib/events.js"
import { newUser, registered } from "../sign-in/users.js"
import type { ProviderIdentity, SignInUser } from "../types.js"

export async function persistEmail(
  ctx: RequestContext,
  identity: ProviderIdentity,
): Promise<SignInUser> {
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
