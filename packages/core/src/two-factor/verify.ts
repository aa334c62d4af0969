/**
 * Checking a second-factor code for a user: a TOTP code of the step before,
 * the current one or the next, never one of a step already used (recorded
 * atomically through the adapter), or, where allowed, one of the user's
 * recovery codes (consumed atomically). Anything else is `InvalidTwoFactorCode`.
 * @module
 */
import type { AdapterTwoFactor } from "../adapters.js"
import type { RequestContext } from "../context.js"
import { InvalidTwoFactorCode } from "../errors.js"
import { callAdapter } from "../lib/adapter.js"
import { readRecoveryCode, recoveryCodeHashes } from "./recovery.js"
import { openKey } from "./secret-box.js"
import { matchingStep, readTotp } from "./totp.js"

/** Checks `input` against `factor`; returns how it was proved. */
export async function verifySecondFactor(
  ctx: RequestContext,
  factor: AdapterTwoFactor,
  input: unknown,
  options: { recoveryCodes: boolean },
): Promise<"totp" | "recovery"> {
  const { config } = ctx
  const { userId } = factor
  if (typeof input !== "string" || input.length > 64)
    throw new InvalidTwoFactorCode("No code was given")
  const totp = readTotp(input)
  if (totp) {
    let key: Uint8Array
    try {
      key = await openKey(config.keys, userId, factor.secret)
    } catch (error) {
      // A row that does not open (another app's secret, or moved to another user) proves nothing.
      throw new InvalidTwoFactorCode("The stored key could not be opened", {
        cause: { err: error },
      })
    }
    const step = matchingStep(key, totp)
    if (step !== undefined && (await callAdapter(config, "useTwoFactorStep", userId, step)))
      return "totp"
    throw new InvalidTwoFactorCode(
      step === undefined ? "The code is wrong" : "The code was used already",
    )
  }
  const recovery = options.recoveryCodes ? readRecoveryCode(input) : undefined
  if (recovery) {
    for (const hash of await recoveryCodeHashes(config, userId, recovery)) {
      if (await callAdapter(config, "useRecoveryCode", userId, hash)) return "recovery"
    }
  }
  throw new InvalidTwoFactorCode("The code is wrong")
}
