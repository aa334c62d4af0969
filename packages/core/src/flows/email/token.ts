/**
 * Verification tokens: the value in the e-mailed link is never stored. The
 * adapter keeps HMAC-SHA-256(secret, token), so someone who reads the database
 * (a backup, a replica, an injection elsewhere) holds nothing that signs anyone
 * in, and cannot even test guesses without the secret.
 * @module
 */
import type { ResolvedEmailProvider } from "../types.js"
import type { ResolvedConfig } from "../../config/resolve.js"
import type { KeyRing } from "../../jwt/keys.js"
import { randomHex } from "../../lib/crypto.js"

/** 32 bytes (256 bits) from the CSPRNG, hex: far beyond guessing within a token's lifetime. */
export function defaultVerificationToken(): string {
  return randomHex(32)
}

/**
 * The keys a token may have been hashed with (`secrets`, newest first): the
 * provider's own `secret`, or every configured secret so links mailed before a
 * rotation keep working until they expire.
 */
export function tokenKeys(
  config: Pick<ResolvedConfig, "keys">,
  provider: ResolvedEmailProvider,
): KeyRing {
  return provider.keys ?? config.keys
}

/**
 * What the adapter stores for `token`, under secret `index` of `keys` (0: the current one).
 * Domain-separated, so the value is useless as any other MAC.
 */
export function hashVerificationToken(keys: KeyRing, token: string, index = 0): Promise<string> {
  return keys.hmac(`tessera.verification-token:${token}`, index)
}

/**
 * A token from the link is worth a database lookup only if it could be one we
 * made: printable ASCII, no spaces, bounded length. (Custom generators may make
 * short codes, so there is no lower bound beyond one character.)
 */
export function isWellFormedToken(value: unknown): value is string {
  return typeof value === "string" && /^[\x21-\x7e]{1,512}$/.test(value)
}
