/**
 * Encrypting and decrypting tokens with a {@link KeyRing}: compact JWE,
 * `alg: "dir"`, `enc: "A256GCM"`, the key's `kid` in the protected header.
 * The public `encode`/`decode` of `@tessera/core/jwt` and every encrypted
 * cookie Tessera sets (session, PKCE, state, nonce, challenges) use these.
 * @module
 */
import { base64url, EncryptJWT, errors, jwtDecrypt } from "jose"
import { syncPrimitives } from "../lib/crypto.js"
import { CLOCK_TOLERANCE, decryptFast, ENC } from "./fast-decrypt.js"
import type { KeyRing } from "./keys.js"

/** Encrypts `claims` with the ring's current secret; adds `iat`, `exp` (now + `maxAge` s) and `jti`. */
export async function encrypt(
  ring: KeyRing,
  salt: string,
  claims: Record<string, unknown>,
  maxAge: number,
): Promise<string> {
  const { key, kid } = await ring.key(salt)
  const now = Math.floor(Date.now() / 1000)
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: ENC, kid })
    .setIssuedAt(now)
    .setExpirationTime(now + maxAge)
    .setJti(crypto.randomUUID())
    .encrypt(key)
}

/**
 * The claims of a token made with any of the ring's secrets. Throws for a token
 * that is malformed, tampered with, expired, or made with another secret; the
 * thrown error never carries the decrypted claims.
 */
export async function decrypt(
  ring: KeyRing,
  salt: string,
  token: string,
): Promise<Record<string, unknown>> {
  const fast = syncPrimitives && (await decryptFast(syncPrimitives, ring, token, salt))
  if (fast) return fast
  try {
    const { payload } = await jwtDecrypt(
      token,
      async ({ kid, enc }) => {
        if (enc !== ENC) throw new TypeError("Unsupported token encryption")
        return (await ring.keyFor(kid, salt)).key
      },
      {
        clockTolerance: CLOCK_TOLERANCE,
        keyManagementAlgorithms: ["dir"],
        contentEncryptionAlgorithms: [ENC],
      },
    )
    return payload
  } catch (error) {
    throw withoutClaims(error)
  }
}

/**
 * True unless `token` names (by `kid`) a key of an older secret of the ring:
 * such a token decodes, but should be issued again with the current secret.
 * Reads the header the decrypt just cached.
 */
export async function isCurrentKey(ring: KeyRing, salt: string, token: string): Promise<boolean> {
  const encoded = token.slice(0, token.indexOf("."))
  const kid = ring.knownHeaders.get(encoded)?.kid ?? headerKid(encoded)
  return kid === undefined || (await ring.key(salt)).kid === kid
}

function headerKid(encoded: string): unknown {
  try {
    return (JSON.parse(new TextDecoder().decode(base64url.decode(encoded))) as { kid?: unknown })
      .kid
  } catch {
    return undefined
  }
}

/** jose's claim errors hold the decrypted payload: replace them with copies that do not. */
export function withoutClaims(error: unknown): unknown {
  if (error instanceof errors.JWTExpired) {
    return new errors.JWTExpired(error.message, {}, error.claim, error.reason)
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new errors.JWTClaimValidationFailed(error.message, {}, error.claim, error.reason)
  }
  return error
}
