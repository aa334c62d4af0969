/**
 * Encrypting and decrypting tokens with a {@link KeyRing}: compact JWE,
 * `alg: "dir"`, `enc: "A256GCM"`, the key's `kid` in the protected header
 * (`jwt/jwe.ts`). The public `encode`/`decode` of `@tessera/core/jwt` and every
 * encrypted cookie Tessera sets (session, PKCE, state, nonce, challenges) use
 * these.
 * @module
 */
import { decryptToken, encryptToken, headerKid } from "./jwe.js"
import type { KeyRing } from "./keys.js"

/** Encrypts `claims` with the ring's current secret; adds `iat`, `exp` (now + `maxAge` s) and `jti`. */
export async function encrypt(
  ring: KeyRing,
  salt: string,
  claims: Record<string, unknown>,
  maxAge: number,
): Promise<string> {
  return encryptToken(await ring.key(salt), claims, maxAge)
}

/**
 * The claims of a token made with any of the ring's secrets. Throws for a token
 * that is malformed, tampered with, expired, or made with another secret; the
 * thrown error never carries the decrypted claims.
 */
export function decrypt(
  ring: KeyRing,
  salt: string,
  token: string,
): Promise<Record<string, unknown>> {
  return decryptToken(ring, salt, token)
}

/**
 * True unless `token` names (by `kid`) a key of an older secret of the ring:
 * such a token decodes, but should be issued again with the current secret.
 * Reads the header the decrypt just cached.
 */
export async function isCurrentKey(ring: KeyRing, salt: string, token: string): Promise<boolean> {
  const kid = headerKid(ring, token)
  return kid === undefined || (await ring.key(salt)).kid === kid
}
