/**
 * Stores a passkey's signature counter after a verified sign-in: the step that
 * tells a cloned authenticator racing the original.
 *
 * The assertion was verified against the counter read from the adapter, `c`.
 * Two sign-ins with copies of one credential can both read `c` and both be
 * ahead of it. With the adapter's compare-and-set (`swapAuthenticatorCounter`,
 * a Tessera extension) the count is stored only if the counter is still `c`:
 * of the two, exactly one stores it, and the other is refused, whatever counts
 * they presented and in whichever order their writes land. Adapters without it
 * (Auth.js's) get `updateAuthenticatorCounter`, which `@tessera/sql` and the
 * memory adapter never let go back: the answer behind a count stored meanwhile
 * is refused, but two sign-ins can still both get in (equal counts, or the
 * lower one stored first).
 * @module
 */
import type { AdapterAuthenticator } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { WebAuthnVerificationError } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"

/** Whether the adapter can store the counter with a compare-and-set. */
export function swapsCounter(ctx: RequestContext): boolean {
  return typeof ctx.config.adapter?.swapAuthenticatorCounter === "function"
}

/**
 * Moves the counter from the value the verification read to `newCounter`, or
 * refuses the sign-in when another one with this credential moved it first.
 */
export async function swapCounter(
  ctx: RequestContext,
  authenticator: AdapterAuthenticator,
  newCounter: number,
): Promise<void> {
  const swapped = await callAdapter(
    ctx.config,
    "swapAuthenticatorCounter",
    authenticator.credentialID,
    authenticator.counter,
    newCounter,
  )
  // Strictly `true`: an adapter answering anything else has not said it stored the count.
  if (swapped !== true)
    throw new WebAuthnVerificationError(
      "The passkey's counter went backwards or was moved by a concurrent sign-in (a cloned authenticator?)",
    )
}

/** Without a compare-and-set: stores the count, and refuses when a higher one was stored meanwhile. */
export async function raiseCounter(
  ctx: RequestContext,
  authenticator: AdapterAuthenticator,
  newCounter: number,
): Promise<void> {
  const stored = await callAdapter(
    ctx.config,
    "updateAuthenticatorCounter",
    authenticator.credentialID,
    newCounter,
  )
  // A concurrent sign-in stored a higher count after this one was read: the two
  // authenticators answering are copies of one, and this is the one behind.
  if (typeof stored?.counter === "number" && stored.counter > newCounter)
    throw new WebAuthnVerificationError(
      "The passkey's counter went backwards (a cloned authenticator?)",
    )
}
