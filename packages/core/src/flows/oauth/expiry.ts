/**
 * An access token's `expires_in` (seconds, from the provider) as the account's
 * `expires_at` (seconds since the epoch). The lifetime is another server's
 * data: one longer than any real token's (a bug, or a hostile provider sending
 * `1e300`) is read as no expiry, since its sum would not fit the 64-bit column
 * SQL adapters keep it in and the sign-in would fail for every user.
 * @module
 */

/** A hundred years: beyond it, a lifetime says "does not expire". */
const LONGEST_LIFETIME = 100 * 365 * 24 * 60 * 60

/** `expires_at` for `expiresIn`, or `undefined` when it gives none (not a number, or no real expiry). */
export function expiresAtOf(expiresIn: unknown): number | undefined {
  if (typeof expiresIn !== "number" || !Number.isFinite(expiresIn)) return undefined
  if (expiresIn > LONGEST_LIFETIME) return undefined
  return Math.floor(Date.now() / 1000) + Math.floor(expiresIn)
}
