/**
 * Recovery codes: 10 per setup, each about 50 random bits written as `xxxxx-xxxxx`
 * (lower-case base32 without look-alikes), shown once and stored as keyed
 * hashes bound to their user. Typed codes are compared after dropping spaces,
 * dashes and case.
 * @module
 */
import type { ResolvedConfig } from "../config/resolve.js"

export const RECOVERY_CODES = 10
/** 31 characters: digits and letters without 0/o, 1/l/i (so a code is about 50 bits). */
const ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
const LENGTH = 10

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    let code = ""
    const bytes = crypto.getRandomValues(new Uint8Array(LENGTH))
    // 31 letters: bytes below 248 (8 × 31) map uniformly.
    for (let i = 0; code.length < LENGTH; i++) {
      const byte = i < bytes.length ? bytes[i]! : crypto.getRandomValues(new Uint8Array(1))[0]!
      if (byte < 248) code += ALPHABET[byte % ALPHABET.length]
    }
    return `${code.slice(0, 5)}-${code.slice(5)}`
  })
}

/** A recovery code as typed, in its canonical form, or `undefined` when it cannot be one. */
export function readRecoveryCode(value: string): string | undefined {
  const compact = value.replace(/[\s-]/g, "").toLowerCase()
  if (compact.length !== LENGTH || ![...compact].every((c) => ALPHABET.includes(c)))
    return undefined
  return `${compact.slice(0, 5)}-${compact.slice(5)}`
}

/** The hashes of `code` for `userId` under each secret (newest first): what the adapter stores. */
export function recoveryCodeHashes(
  config: Pick<ResolvedConfig, "keys">,
  userId: string,
  code: string,
): Promise<string[]> {
  const { keys } = config
  return Promise.all(
    keys.secrets.map((_, index) => keys.hmac(`tessera.recovery-code:${userId}:${code}`, index)),
  )
}
