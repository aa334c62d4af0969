/**
 * The `twoFactor` option: second factors (TOTP with recovery codes) are on
 * whenever the adapter stores them (the six optional two-factor methods), so
 * an app that migrates its database gets them; `twoFactor: false` turns them
 * off, and asking for them with an adapter that lacks the methods is a
 * configuration error, found once.
 * @module
 */
import type { Adapter } from "../adapters.js"
import { InvalidConfiguration, MissingAdapterMethods } from "../errors.js"

/**
 * The `twoFactor` option.
 *
 * @see [RFC 6238, TOTP](https://www.rfc-editor.org/rfc/rfc6238.html)
 */
export interface TwoFactorConfig {
  /** The name authenticator apps show for the account (the otpauth `issuer`). Default: the app's host. */
  issuer?: string
  /**
   * Whether a passkey sign-in counts as both factors (something you have,
   * unlocked by something you know or are), so no code is asked after it.
   * Only an assertion whose authenticator verified the user (UV) counts: with
   * user presence alone (`userVerification` relaxed) the code is still asked.
   * Default false: every first factor is followed by the code.
   */
  passkeysSatisfyTwoFactor?: boolean
  /** Seconds the user has, after the first factor, to enter the code. Default 600 (10 minutes). */
  maxAge?: number
}

export interface ResolvedTwoFactor {
  readonly issuer: string | undefined
  readonly passkeysSatisfyTwoFactor: boolean
  readonly maxAge: number
}

/** The adapter methods second factors need. */
export const TWO_FACTOR_METHODS = [
  "createTwoFactor",
  "getTwoFactor",
  "enableTwoFactor",
  "useTwoFactorStep",
  "useRecoveryCode",
  "deleteTwoFactor",
  "getUser",
  "createVerificationToken",
] as const

/** Checks `twoFactor` once; `undefined` when second factors are off. */
export function resolveTwoFactor(
  option: TwoFactorConfig | false | undefined,
  adapter: Adapter | undefined,
): ResolvedTwoFactor | undefined {
  if (option === false) return undefined
  if (option !== undefined && (option === null || typeof option !== "object")) {
    throw new InvalidConfiguration("twoFactor must be an object or false")
  }
  const missing = TWO_FACTOR_METHODS.filter((m) => typeof adapter?.[m] !== "function")
  if (missing.length) {
    // Not asked for: off, as for adapters written before second factors existed.
    if (option === undefined) return undefined
    throw new MissingAdapterMethods(`Second factors need adapter methods: ${missing.join(", ")}`)
  }
  const { issuer, passkeysSatisfyTwoFactor = false, maxAge = 600 } = option ?? {}
  if (
    issuer !== undefined &&
    (typeof issuer !== "string" || issuer === "" || issuer.includes(":"))
  ) {
    throw new InvalidConfiguration("twoFactor.issuer must be a non-empty string without ':'")
  }
  if (!Number.isInteger(maxAge) || maxAge < 60 || maxAge > 3600) {
    throw new InvalidConfiguration("twoFactor.maxAge must be whole seconds from 60 to 3600")
  }
  return { issuer, passkeysSatisfyTwoFactor: passkeysSatisfyTwoFactor === true, maxAge }
}
