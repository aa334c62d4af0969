/**
 * Reading a session token Auth.js v5 made, so users of an app that moves over
 * stay signed in (see `session/authjs-cookies.ts`). Only decoding: Tessera
 * never writes this format.
 *
 * Auth.js's keys: `HKDF-SHA-256(ikm = secret, salt = cookie name, info =
 * "Auth.js Generated Encryption Key (<salt>)")`, 64 bytes for its default
 * `A256CBC-HS512` (32 for `A256GCM`), and a `kid` that is the key's JWK
 * thumbprint (SHA-512 for 64-byte keys).
 *
 * Decoded with Tessera's own JWE code (`jwt/jwe.ts`: header, body and claim
 * checks; `jwt/cbc-hmac.ts`: `A256CBC-HS512`), which accepts and refuses what
 * jose's `jwtDecrypt` does for these tokens (a test runs one corpus through
 * both), with the same error classes, minus compression (`zip`, which Auth.js
 * never sets): jose's JWE machinery would put some 15 KB into every bundle.
 * @module
 */
import type { JWT } from "../jwt.js"
import { hkdfSha256 } from "../lib/crypto.js"
import { CBC_IV_BYTES, CBC_KEY_BYTES, decryptCbcHmac } from "./cbc-hmac.js"
import { asJoseError } from "./jose-errors.js"
import {
  ENC as GCM,
  IV_BYTES,
  KEY_BYTES,
  TAG_BYTES,
  checkedClaims,
  decodeBody,
  decryptGcm,
  parseHeader,
  plaintextOf,
  splitCompact,
} from "./jwe.js"
import { jwkThumbprint } from "./keys.js"

const CBC = "A256CBC-HS512"
const encoder = new TextEncoder()

/**
 * The key of the first of `secrets` whose thumbprint is `kid` (the first
 * secret's, for a token without one), as Auth.js picks it.
 */
async function keyFor(
  kid: unknown,
  secrets: readonly string[],
  salt: string,
  length: number,
): Promise<Uint8Array> {
  for (const secret of secrets) {
    const key = await hkdfSha256(secret, salt, `Auth.js Generated Encryption Key (${salt})`, length)
    if (kid === undefined) return key
    const thumbprint = await jwkThumbprint(key, length === CBC_KEY_BYTES ? "SHA-512" : "SHA-256")
    if (kid === thumbprint) return key
  }
  throw new TypeError("No secret made this token")
}

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
    return await openAuthjsToken(token, secrets, salt)
  } catch (error) {
    throw await asJoseError(error)
  }
}

/** {@link decodeAuthjsToken}'s steps, throwing a `JoseFailure` for a bad token. */
async function openAuthjsToken(
  token: string,
  secrets: readonly string[],
  salt: string,
): Promise<JWT> {
  const parts = splitCompact(token)
  const header = parseHeader(parts[0]!, [CBC, GCM])
  const cbc = header.enc === CBC
  // The key before the body, as jose's order of checks has it: the same error for the same token.
  const key = await keyFor(header.kid, secrets, salt, cbc ? CBC_KEY_BYTES : KEY_BYTES)
  const body = cbc ? decodeBody(parts, CBC_IV_BYTES) : decodeBody(parts, IV_BYTES, TAG_BYTES)
  const aad = encoder.encode(parts[0])
  const bytes = cbc
    ? await decryptCbcHmac(key, body, aad)
    : await decryptGcm({ raw: key, kid: "" }, body, aad)
  return checkedClaims({ header, plaintext: plaintextOf(bytes) })
}
