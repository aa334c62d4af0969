/**
 * The session check's hot path: the same checks `jose.jwtDecrypt` makes for the
 * tokens `encode` produces (compact JWE, `dir`, `A256GCM`, header
 * `alg`/`enc`/`kid` only, then `iat`/`nbf`/`exp` with the same clock
 * tolerance), with a synchronous AES-GCM decrypt from `node:crypto`.
 *
 * Why: on Node every `crypto.subtle` call is a round trip through the libuv
 * thread pool, several times what the rest of a session check costs. Any token
 * of another shape returns `undefined` and goes through jose, so nothing jose
 * would refuse is accepted here. Errors are jose's classes.
 * @module
 */
import { base64url, errors } from "jose"
import type { SyncPrimitives } from "../lib/crypto.js"
import type { KeyRing } from "./keys.js"

export const ENC = "A256GCM"
export const CLOCK_TOLERANCE = 15

const B64URL = /^[A-Za-z0-9_-]+$/
const asciiEncoder = new TextEncoder()
const strictDecoder = new TextDecoder("utf-8", { fatal: true })
const MAX_KNOWN_HEADERS = 32

/**
 * What jose's decoder (`atob`, "forgiving base64") accepts: base64url characters,
 * never a length of 4n + 1, and padding only where it completes a quantum.
 */
function isBase64url(value: string): boolean {
  const unpadded = value.length % 4 === 0 ? value.replace(/={1,2}$/, "") : value
  return unpadded.length % 4 !== 1 && B64URL.test(unpadded)
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** The protected header of a token `encode` could have made, or `undefined` for any other shape. */
function headerOf(ring: KeyRing, encoded: string): { kid: unknown } | undefined {
  const known = ring.knownHeaders.get(encoded)
  if (known) return known
  let parsed: unknown
  try {
    parsed = JSON.parse(strictDecoder.decode(base64url.decode(encoded)))
  } catch {
    return undefined
  }
  if (!isPlainObject(parsed) || parsed.alg !== "dir" || parsed.enc !== ENC) return undefined
  if (Object.keys(parsed).some((name) => name !== "alg" && name !== "enc" && name !== "kid")) {
    return undefined
  }
  return { kid: parsed.kid }
}

/** The claims of `token`, `undefined` when it is not a shape this path handles; throws jose's errors. */
export async function decryptFast(
  sync: SyncPrimitives,
  ring: KeyRing,
  token: string,
  salt: string,
): Promise<Record<string, unknown> | undefined> {
  const parts = token.split(".")
  if (parts.length !== 5 || parts[1] !== "") return undefined
  const [encodedHeader, , encodedIv, encodedCiphertext, encodedTag] = parts as [
    string,
    string,
    string,
    string,
    string,
  ]
  const header = headerOf(ring, encodedHeader)
  if (!header) return undefined
  if (!isBase64url(encodedIv) || !isBase64url(encodedCiphertext) || !isBase64url(encodedTag)) {
    throw new errors.JWEInvalid("Malformed JWE")
  }
  const iv = sync.base64urlDecode(encodedIv)
  const tag = sync.base64urlDecode(encodedTag)
  if (iv.byteLength !== 12) throw new errors.JWEInvalid("Invalid Initialization Vector length")
  if (tag.byteLength !== 16) throw new errors.JWEInvalid("Invalid Authentication Tag length")
  const { raw } = ring.readyKeyFor(header.kid, salt) ?? (await ring.keyFor(header.kid, salt))
  let plaintext: Uint8Array
  try {
    const ciphertext = sync.base64urlDecode(encodedCiphertext)
    plaintext = sync.aesGcmDecrypt(raw, iv, ciphertext, tag, asciiEncoder.encode(encodedHeader))
  } catch (cause) {
    throw new errors.JWEDecryptionFailed(undefined, { cause })
  }
  if (!ring.knownHeaders.has(encodedHeader)) {
    if (ring.knownHeaders.size >= MAX_KNOWN_HEADERS) ring.knownHeaders.clear()
    ring.knownHeaders.set(encodedHeader, header)
  }
  let claims: unknown
  try {
    claims = JSON.parse(strictDecoder.decode(plaintext))
  } catch (cause) {
    throw new errors.JWTInvalid("JWT Claims Set must be a top-level JSON object", { cause })
  }
  if (!isPlainObject(claims)) {
    throw new errors.JWTInvalid("JWT Claims Set must be a top-level JSON object")
  }
  return validateTimes(claims)
}

/**
 * `iat`, `nbf` and `exp` as jose checks them with `clockTolerance`. The errors
 * carry no claims: jose's would hold the decrypted payload, and errors get logged.
 */
function validateTimes(claims: Record<string, unknown>): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000)
  for (const claim of ["iat", "nbf", "exp"] as const) {
    if (claims[claim] !== undefined && typeof claims[claim] !== "number") {
      throw new errors.JWTClaimValidationFailed(
        `"${claim}" claim must be a number`,
        {},
        claim,
        "invalid",
      )
    }
  }
  const { nbf, exp } = claims as { nbf?: number; exp?: number }
  if (nbf !== undefined && nbf > now + CLOCK_TOLERANCE) {
    throw new errors.JWTClaimValidationFailed(
      '"nbf" claim timestamp check failed',
      {},
      "nbf",
      "check_failed",
    )
  }
  if (exp !== undefined && exp <= now - CLOCK_TOLERANCE) {
    throw new errors.JWTExpired('"exp" claim timestamp check failed', {}, "exp", "check_failed")
  }
  return claims
}
