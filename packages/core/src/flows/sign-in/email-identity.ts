/**
 * E-mail addresses as identity: an address nobody proved owning never
 * identifies an account.
 *
 * A user's address is verified when the user proved it (an e-mail sign-in
 * link) or a provider that checks addresses vouched for it (`verifiedEmail`).
 * Only a verified address finds a user by e-mail (for e-mail sign-in, for
 * account linking). An address given without proof (at passkey sign-up, by a
 * provider that does not verify) is stored as a claim (`emailVerified: null`)
 * that matches nothing.
 *
 * When someone proves an address another account holds unverified, the claim
 * is released (that account's e-mail becomes `null`) and the one who proved it
 * gets an account of their own: they inherit none of the credentials (passkeys,
 * linked accounts, sessions) added to the claiming account before anyone
 * proved the address, and the claiming account's sessions end. Only when the claiming account itself is the one signed
 * in does the proof verify its address in place.
 *
 * A user the adapter finds counts only if it holds the very address asked for
 * (ASCII case aside): a database collation that folds accents or width must not
 * turn a look-alike on someone else's domain into the victim's account.
 * @module
 */
import type { AdapterUser } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { AccountNotLinked } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { fireEvent } from "../../lib/events.js"
import { revokeSessions } from "../../session/records.js"

/**
 * ASCII letters in lower case, nothing else touched: a stored address that
 * Tessera did not write (an app's own user, an import) may keep its case.
 */
const asciiLower = (value: string) => value.replace(/[A-Z]+/g, (run) => run.toLowerCase())

/**
 * Whether the user an adapter found holds `email` itself. Databases often
 * compare the e-mail column loosely (MySQL's default collations ignore case and
 * accents; PostgreSQL's nondeterministic ICU collations and citext fold case or
 * width), so `getUserByEmail("kristin@ki\u00F3sk.test")` can answer the holder
 * of `kristin@kiosk.test`: another mailbox, on a domain anyone can register. An
 * app's `normalizeIdentifier` that keeps Unicode domains hands such addresses
 * to the adapter. Only ASCII case is ignored, as in the e-mail link's check of
 * its token row (`email/callback.ts`).
 */
function holdsExactly(user: AdapterUser, email: string): boolean {
  return typeof user.email === "string" && asciiLower(user.email) === asciiLower(email)
}

/** The user the adapter finds for `email`, and whether that user holds it exactly. */
async function lookUp(
  ctx: RequestContext,
  email: string,
): Promise<{ user: AdapterUser; exact: boolean } | null> {
  const user = await callAdapter(ctx.config, "getUserByEmail", email)
  return user ? { user, exact: holdsExactly(user, email) } : null
}

/**
 * The holder of `email`, and whether the address is verified on them. A user
 * the database matched to another address (see {@link holdsExactly}) is
 * refused: it is not the holder, and no one else can have the address either
 * (the column's unique index compares as loosely).
 */
export async function holderOf(
  ctx: RequestContext,
  email: string,
): Promise<{ user: AdapterUser; verified: boolean } | null> {
  const found = await lookUp(ctx, email)
  if (!found) return null
  if (!found.exact) {
    throw new AccountNotLinked(
      "The database matched this e-mail address to another user's different address (a collation that ignores accents, case or width)",
    )
  }
  return { user: found.user, verified: !!found.user.emailVerified }
}

/**
 * The user `email` identifies: its holder when the address is verified on
 * them, else nobody. A look-alike the database matched is nobody here too: this
 * answers the sign-in request before any proof, which must not tell whether a
 * look-alike has an account; the proof's callback then refuses in `holderOf`.
 */
export async function userByVerifiedEmail(
  ctx: RequestContext,
  email: string,
): Promise<AdapterUser | null> {
  const found = await lookUp(ctx, email)
  return found?.exact && found.user.emailVerified ? found.user : null
}

/**
 * Takes the unverified address off `holder`, so that the one who just proved
 * it can have it (the e-mail column is unique), and ends the holder's
 * sessions: a JWT session carries the address and would go on showing it, and
 * whoever claimed it must not stay signed in as its owner. Logged for the
 * operator: an account lost an address it claimed without proof.
 */
export async function releaseClaim(ctx: RequestContext, holder: AdapterUser): Promise<void> {
  const user = await callAdapter(ctx.config, "updateUser", {
    id: holder.id,
    email: null as unknown as string,
  })
  ctx.config.logger.debug("An unverified e-mail address was released from an account", {
    userId: holder.id,
  })
  await fireEvent(ctx, "updateUser", { user })
  if (ctx.config.sessionRecords) {
    await revokeSessions(ctx, { userId: holder.id }, "email-claim-released")
  }
}

/** Marks the address of `user` verified now (they proved it while signed in as themselves). */
export async function verifyInPlace(ctx: RequestContext, user: AdapterUser): Promise<AdapterUser> {
  const updated = await callAdapter(ctx.config, "updateUser", {
    id: user.id,
    emailVerified: new Date(),
  })
  await fireEvent(ctx, "updateUser", { user: updated })
  return updated
}

/**
 * The user an e-mail sign-in for `email` is about, as the `signIn` callback
 * sees it: the verified holder, or a user yet to be created.
 */
export async function emailSignInUser(ctx: RequestContext, email: string): Promise<AdapterUser> {
  return (
    (await userByVerifiedEmail(ctx, email)) ?? {
      id: crypto.randomUUID(),
      email,
      emailVerified: null,
    }
  )
}
