/**
 * Reading a session token Auth.js v5 made, so users of an app that moves over
 * stay signed in (see `session/authjs-cookies.ts`). Only decoding: Tessera
 * never writes this format.
 *
 * Auth.js's keys: `HKDF-SHA-256(ikm = secret, salt = cookie name, info =
 * "Auth.js Generated Encryption Key (<salt>)")`, 64 bytes for its default
 * `A256CBC-HS512` (32 for `A256GCM`), and a `kid` that is the key's JWK
 * thumbprint (SHA-512 for 64-byte keys).
 * @module
 */
import { base64url, calculateJwkThumbprint, jwtDecrypt } from "jose"
import type { JWT } from "../jwt.js"
import { hkdfSha256 } from "../lib/crypto.js"
import { withoutClaims } from "./codec.js"
import { CLOCK_TOLERANCE } from "./fast-decrypt.js"

const KEY_LENGTHS: Record<string, number> = { "A256CBC-HS512": 64, A256GCM: 32 }
/**
 * The claims of an Auth.js v5 session token made with one of `secrets` for the
 * cookie `salt`. Throws (without the claims) for anything else, or an expired one.
 */
export async function decodeAuthjsToken(
  token: string,
  secrets: readonly string[],
  salt: string,
): Promise<JWT> {
  try {
    const { payload } = await jwtDecrypt(
      token,
      async ({ kid, enc }) => {
        const length = KEY_LENGTHS[enc]
        if (!length) throw new TypeError("Unsupported token encryption")
        for (const secret of secrets) {
          const key = await hkdfSha256(
            secret,
            salt,
            `Auth.js Generated Encryption Key (${salt})`,
            length,
          )
          if (kid === undefined) return key
          const thumbprint = await calculateJwkThumbprint(
            { kty: "oct", k: base64url.encode(key) },
            length === 64 ? "sha512" : "sha256",
          )
          if (kid === thumbprint) return key
        }
        throw new TypeError("No secret made this token")
      },
      {
        clockTolerance: CLOCK_TOLERANCE,
        keyManagementAlgorithms: ["dir"],
        contentEncryptionAlgorithms: Object.keys(KEY_LENGTHS),
      },
    )
    return payload
  } catch (error) {
    throw withoutClaims(error)
  }
}
