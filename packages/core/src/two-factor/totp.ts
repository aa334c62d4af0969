/**
 * TOTP (RFC 6238) as authenticator apps expect it: HMAC-SHA-1, 6 digits,
 * 30-second steps, on @oslojs/otp. A code is accepted for the current step or
 * one either side (clock drift), and the step it matched is returned so the
 * caller can record it: a code, once used, never works again.
 * @module
 */
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp"
import { timingSafeEqual } from "../lib/crypto.js"

export const PERIOD = 30
export const DIGITS = 6
/** 160 bits, the key size RFC 4226 recommends for HMAC-SHA-1. */
const KEY_BYTES = 20

export function newTotpKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(KEY_BYTES))
}

/** The time step of `now` (ms). */
export function stepAt(now: number): number {
  return Math.floor(now / 1000 / PERIOD)
}

/** A TOTP code as typed: 6 digits, spaces dropped. */
export function readTotp(value: string): string | undefined {
  const digits = value.replace(/\s/g, "")
  return /^\d{6}$/.test(digits) ? digits : undefined
}

/**
 * The step (now - 1, now or now + 1) whose code `code` is, or `undefined`.
 * All three are computed and compared in constant time, whichever matches.
 */
export function matchingStep(key: Uint8Array, code: string, now = Date.now()): number | undefined {
  const current = stepAt(now)
  let found: number | undefined
  for (const step of [current - 1, current, current + 1]) {
    if (timingSafeEqual(generateHOTP(key, BigInt(step), DIGITS), code)) found = step
  }
  return found
}

/** The code of `now`'s step: for tests and the demo's own checks. */
export function totpAt(key: Uint8Array, now = Date.now()): string {
  return generateHOTP(key, BigInt(stepAt(now)), DIGITS)
}

/** The `otpauth://totp/...` URI an authenticator app scans. */
export function keyUri(issuer: string, account: string, key: Uint8Array): string {
  return createTOTPKeyURI(issuer, account, key, PERIOD, DIGITS)
}
