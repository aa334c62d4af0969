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
 * (Auth.js's) get the same guarantee another way: the step from `c` is first
 * claimed as a verification token (`claimCounterStep`), which every adapter
 * refuses twice, so only one sign-in from `c` goes on to
 * `updateAuthenticatorCounter` (red team 22: before, equal counts, or the
 * lower one stored first, both got in).
 * @module
 */
import type { AdapterAuthenticator } from "../../adapters.js"
import type { RequestContext } from "../../context.js"
import { WebAuthnVerificationError } from "../../errors.js"
import { callAdapter } from "../../lib/adapter.js"
import { sha256Hex } from "../../lib/crypto.js"
import { isDuplicateRefusal } from "../../lib/duplicate.js"

const COUNTER_STEP = "webauthn-counter"

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

/**
 * Without a compare-and-set: claims the move away from the counter the
 * verification read, as a verification token (identifier `webauthn-counter`,
 * token = SHA-256 of the credential id and that counter). Adapters refuse a
 * duplicate token (the conformance suite requires it), so of two sign-ins
 * verified against the same stored counter only the first to claim goes on;
 * the other is refused before it writes anything. Returns the undo for a
 * sign-in that fails after claiming (an adapter fault storing the count), so
 * the passkey is not refused as a clone until the claim expires.
 */
export async function claimCounterStep(
  ctx: RequestContext,
  authenticator: AdapterAuthenticator,
  lifetimeSeconds: number,
): Promise<() => Promise<void>> {
  const step = {
    identifier: COUNTER_STEP,
    // The credential id is up to 1366 characters: hashed to a token of fixed size.
    token: await sha256Hex(`${authenticator.credentialID}:${authenticator.counter}`),
  }
  try {
    await callAdapter(ctx.config, "createVerificationToken", {
      ...step,
      // Only sign-ins in flight from this counter need to meet the claim: a challenge's life is ample.
      expires: new Date(Date.now() + lifetimeSeconds * 1000),
    })
  } catch (error) {
    // Only the duplicate is the race; the database failing to store the claim is a server fault.
    if (!isDuplicateRefusal(error)) throw error
    throw new WebAuthnVerificationError(
      "The passkey's counter was moved by a concurrent sign-in (a cloned authenticator?)",
      { cause: { err: error } },
    )
  }
  return async () => {
    if (ctx.config.adapter?.useVerificationToken)
      await callAdapter(ctx.config, "useVerificationToken", step)
  }
}

/** Without a compare-and-set, after `claimCounterStep`: stores the count, and refuses when a higher one was stored meanwhile. */
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
