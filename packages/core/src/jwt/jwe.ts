/**
 * Compact JWE (RFC 7516) with `alg: "dir"` and `enc: "A256GCM"`, the one kind
 * of token Tessera makes and accepts, and the JWT claim checks of
 * `jose.jwtDecrypt` (RFC 7519 §7.2) with a 15 s clock tolerance.
 *
 * Why not jose itself: importing jose loads 46 modules (about half of a cold
 * start) and puts 39 KB in every bundle, for one algorithm pair. What jose
 * accepts and refuses for these tokens is kept (a test runs one corpus through
 * both), stricter where jose is lenient: base64url without whitespace, and no
 * compression (`zip`). The errors are jose's classes (the steps throw a
 * `JoseFailure` naming one, `jwt/jose-errors.ts`, which {@link decryptToken}
 * makes jose's: `jose/errors` loads only when a token fails), and none carries
 * the decrypted claims: they get logged.
 *
 * AES-GCM runs synchronously on `node:crypto` where the runtime has it (on Node
 * every `crypto.subtle` call is a round trip through the thread pool, more than
 * a whole session check costs), and on Web Crypto elsewhere.
 *
 * The steps (split, header, body, GCM, plaintext, claims) are exported one by
 * one for `jwt/authjs.ts`, which reads Auth.js's tokens with the same checks
 * and a second `enc` (`A256CBC-HS512`, `jwt/cbc-hmac.ts`).
 * @module
 */
import { decodeBase64url, encodeBase64url } from "../lib/base64url.js"
import { nodePrimitives } from "../lib/crypto.js"
import { JoseFailure, asJoseError } from "./jose-errors.js"
import type { DerivedKey, KeyRing } from "./keys.js"
import { webCryptoKey } from "./keys.js"

export const ALG = "dir"
export const ENC = "A256GCM"
export const CLOCK_TOLERANCE = 15

/**
 * What decoding needs of a protected header: the content encryption, the key
 * id, and the claims it replicates (RFC 7519 §5.3).
 */
export interface JweHeader {
  readonly enc: string
  readonly kid: unknown
  readonly iss?: unknown
  readonly sub?: unknown
  readonly aud?: unknown
}

const encoder = new TextEncoder()
const strictDecoder = new TextDecoder("utf-8", { fatal: true })
const MAX_KNOWN_HEADERS = 32
/** Decrypted tokens kept per salt: a server's recently active sessions. */
const MAX_DECRYPTED = 512
/** `A256GCM`'s key, IV and tag lengths (RFC 7518 §5.3). */
export const KEY_BYTES = 32
export const IV_BYTES = 12
export const TAG_BYTES = 16

/** A plain JSON object, as jose's `isObject` decides. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false
  if (Object.prototype.toString.call(value) !== "[object Object]") return false
  const proto = Object.getPrototypeOf(value) as object | null
  return proto === null || Object.getPrototypeOf(proto) === null
}

function decodePart(encoded: string, label: string): Uint8Array {
  try {
    return decodeBase64url(encoded)
  } catch (cause) {
    throw new JoseFailure("JWEInvalid", `Failed to base64url decode the ${label}`, { cause })
  }
}

/**
 * The protected header, checked as jose checks it for `alg: "dir"` and an `enc`
 * of `encs` (RFC 7516 §5.2 steps 2-5).
 */
export function parseHeader(encoded: string, encs: readonly string[] = [ENC]): JweHeader {
  let parsed: unknown
  try {
    parsed = JSON.parse(strictDecoder.decode(decodeBase64url(encoded)))
  } catch (cause) {
    throw new JoseFailure("JWEInvalid", "JWE Protected Header is invalid", { cause })
  }
  if (!isPlainObject(parsed)) throw new JoseFailure("JWEInvalid", "JWE Protected Header is invalid")
  if (parsed.crit !== undefined) {
    const { crit } = parsed
    if (
      !Array.isArray(crit) ||
      crit.length === 0 ||
      crit.some((name) => typeof name !== "string" || name.length === 0)
    ) {
      throw new JoseFailure(
        "JWEInvalid",
        '"crit" (Critical) Header Parameter MUST be an array of non-empty strings when present',
      )
    }
    // No JWE extension is understood here (nor by jose).
    throw new JoseFailure(
      "JOSENotSupported",
      `Extension Header Parameter "${String(crit[0])}" is not recognized`,
    )
  }
  if (parsed.zip !== undefined) {
    throw new JoseFailure(
      "JOSENotSupported",
      'JWE "zip" (Compression Algorithm) Header Parameter is not supported',
    )
  }
  const { alg, enc } = parsed
  if (typeof alg !== "string" || !alg) {
    throw new JoseFailure("JWEInvalid", "missing JWE Algorithm (alg) in JWE Header")
  }
  if (typeof enc !== "string" || !enc) {
    throw new JoseFailure("JWEInvalid", "missing JWE Encryption Algorithm (enc) in JWE Header")
  }
  if (alg !== ALG)
    throw new JoseFailure(
      "JOSEAlgNotAllowed",
      '"alg" (Algorithm) Header Parameter value not allowed',
    )
  if (!encs.includes(enc)) {
    throw new JoseFailure(
      "JOSEAlgNotAllowed",
      '"enc" (Encryption Algorithm) Header Parameter value not allowed',
    )
  }
  const { kid, iss, sub, aud } = parsed
  return Object.freeze({ enc, kid, iss, sub, aud })
}

/** A compact JWE (RFC 7516 §7.1) split into its five parts, still encoded. */
export function splitCompact(token: unknown): readonly string[] {
  if (typeof token !== "string") throw new JoseFailure("JWEInvalid", "Compact JWE must be a string")
  const parts = token.split(".")
  if (parts.length !== 5) throw new JoseFailure("JWEInvalid", "Invalid Compact JWE")
  return parts
}

/** The decoded body of a `dir` token: what its content encryption takes as input. */
export interface JweBody {
  readonly iv: Uint8Array
  readonly ciphertext: Uint8Array
  readonly tag: Uint8Array
}

/**
 * The IV, ciphertext and tag of a `dir` token's {@link splitCompact} parts,
 * checked as jose checks them: no encrypted key (the key is agreed
 * beforehand), an IV of `ivBytes`, and a tag of `tagBytes` when given (a
 * CBC-HMAC tag of any other length simply fails the MAC comparison, as in jose).
 */
export function decodeBody(parts: readonly string[], ivBytes: number, tagBytes?: number): JweBody {
  const [, encryptedKey, encodedIv, encodedCiphertext, encodedTag] = parts
  if (encryptedKey !== "")
    throw new JoseFailure("JWEInvalid", "Encountered unexpected JWE Encrypted Key")
  if (!encodedIv) throw new JoseFailure("JWEInvalid", "JWE Initialization Vector missing")
  if (!encodedTag) throw new JoseFailure("JWEInvalid", "JWE Authentication Tag missing")
  const iv = decodePart(encodedIv, "iv")
  const tag = decodePart(encodedTag, "tag")
  const ciphertext = decodePart(encodedCiphertext!, "ciphertext")
  if (iv.byteLength !== ivBytes)
    throw new JoseFailure("JWEInvalid", "Invalid Initialization Vector length")
  if (tagBytes !== undefined && tag.byteLength !== tagBytes) {
    throw new JoseFailure("JWEInvalid", "Invalid Authentication Tag length")
  }
  return { iv, ciphertext, tag }
}

/** A protected header that decrypted a token, with its bytes as the AES-GCM additional data. */
export interface KnownHeader extends JweHeader {
  readonly aad: Uint8Array
}

/** A token that decrypted: its protected header and its plaintext (the claims, as JSON). */
export interface DecryptedToken {
  readonly header: JweHeader
  readonly plaintext: string
  /**
   * The claims, when every value is a string, number, boolean or null (a session
   * token as Tessera makes it): copied on each use instead of parsed again. A
   * shallow copy of such an object is a whole copy, so callers may still change it.
   */
  readonly flat?: Readonly<Record<string, unknown>>
}

/** True when no value of `claims` is an object or array (a shallow copy is a deep one). */
function isFlat(claims: Record<string, unknown>): boolean {
  for (const key in claims) {
    const value = claims[key]
    if (value !== null && typeof value === "object") return false
  }
  return true
}

/** The claims of a token decrypted before, as {@link checkedClaims} would give them. */
function reusedClaims(seen: DecryptedToken): Record<string, unknown> {
  if (!seen.flat) return checkedClaims(seen)
  const claims = { ...seen.flat }
  validateTimes(claims)
  validateReplicated(seen.header, claims)
  return claims
}

function remember(ring: KeyRing, encoded: string, header: JweHeader, aad: Uint8Array): void {
  if (ring.knownHeaders.size >= MAX_KNOWN_HEADERS) ring.knownHeaders.clear()
  ring.knownHeaders.set(encoded, Object.freeze({ ...header, aad }))
}

/** AES-GCM decryption on Web Crypto, where `node:crypto` is missing. */
async function webCryptoDecrypt(
  key: DerivedKey,
  { iv, ciphertext, tag }: JweBody,
  aad: Uint8Array,
): Promise<Uint8Array> {
  const sealed = new Uint8Array(ciphertext.byteLength + tag.byteLength)
  sealed.set(ciphertext)
  sealed.set(tag, ciphertext.byteLength)
  try {
    const plaintext = await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: iv as Uint8Array<ArrayBuffer>,
        additionalData: aad as Uint8Array<ArrayBuffer>,
        tagLength: 128,
      },
      await webCryptoKey(key),
      sealed,
    )
    return new Uint8Array(plaintext)
  } catch (cause) {
    throw new JoseFailure("JWEDecryptionFailed", undefined, { cause })
  }
}

/**
 * The plaintext of an `A256GCM` body under `key`, or `JWEDecryptionFailed`.
 * Synchronous on node:crypto (a session check awaits nothing it does not have
 * to), a promise on Web Crypto.
 */
export function decryptGcm(
  key: DerivedKey,
  body: JweBody,
  aad: Uint8Array,
): Uint8Array | Promise<Uint8Array> {
  const node = nodePrimitives()
  if (!node) return webCryptoDecrypt(key, body, aad)
  try {
    return node.aesGcmDecrypt(key.raw, body.iv, body.ciphertext, body.tag, aad)
  } catch (cause) {
    throw new JoseFailure("JWEDecryptionFailed", undefined, { cause })
  }
}

/** Decrypted bytes as the claims' JSON text: strict UTF-8, as jose decodes them. */
export function plaintextOf(bytes: Uint8Array): string {
  const node = nodePrimitives()
  try {
    return node ? node.utf8Decode(bytes) : strictDecoder.decode(bytes)
  } catch (cause) {
    throw new JoseFailure("JWTInvalid", "JWT Claims Set must be a top-level JSON object", { cause })
  }
}

/**
 * The claims of `token`, decrypted with the ring's key its `kid` names (or the
 * current key, without one). Throws jose's error classes for a token that is
 * malformed, tampered with, expired or not yet valid, and a `TypeError` when
 * no secret of the ring has the token's key id.
 */
export async function decryptToken(
  ring: KeyRing,
  salt: string,
  token: string,
): Promise<Record<string, unknown>> {
  try {
    return await openToken(ring, salt, token)
  } catch (error) {
    throw await asJoseError(error)
  }
}

/** {@link decryptToken}'s steps, throwing a {@link JoseFailure} for a bad token. */
async function openToken(
  ring: KeyRing,
  salt: string,
  token: string,
): Promise<Record<string, unknown>> {
  // The same token again (a session cookie on each request): its claims, checked as after a decrypt.
  const seen = ring.decrypted.get(salt)?.get(token)
  if (seen) return reusedClaims(seen)
  const parts = splitCompact(token)
  const encodedHeader = parts[0]!
  // Tokens of one key share one header: it is parsed once per key ring.
  const known = ring.knownHeaders.get(encodedHeader)
  const header = known ?? parseHeader(encodedHeader)
  const body = decodeBody(parts, IV_BYTES, TAG_BYTES)
  const key = ring.readyKeyFor(header.kid, salt) ?? (await ring.keyFor(header.kid, salt))
  const aad = known?.aad ?? encoder.encode(encodedHeader)
  const opened = decryptGcm(key, body, aad)
  const bytes = opened instanceof Uint8Array ? opened : await opened
  // Only a header that decrypted a token is kept: garbage cannot fill the cache.
  if (!known) remember(ring, encodedHeader, header, aad)
  const plaintext = plaintextOf(bytes)
  const claims = checkedClaims({ header, plaintext })
  // Kept once its claims parsed: only tokens made with the ring's keys, checked again on each use.
  let bySalt = ring.decrypted.get(salt)
  if (!bySalt) ring.decrypted.set(salt, (bySalt = new Map()))
  if (bySalt.size >= MAX_DECRYPTED) bySalt.clear()
  const flat = isFlat(claims) ? Object.freeze({ ...claims }) : undefined
  bySalt.set(token, { header, plaintext, flat })
  return claims
}

/** The claims of a decrypted token, parsed afresh (callers may change them) and checked. */
export function checkedClaims({ header, plaintext }: DecryptedToken): Record<string, unknown> {
  let claims: unknown
  try {
    claims = JSON.parse(plaintext)
  } catch (cause) {
    throw new JoseFailure("JWTInvalid", "JWT Claims Set must be a top-level JSON object", { cause })
  }
  if (!isPlainObject(claims)) {
    throw new JoseFailure("JWTInvalid", "JWT Claims Set must be a top-level JSON object")
  }
  validateTimes(claims)
  validateReplicated(header, claims)
  return claims
}

const TIME_CLAIMS = ["iat", "nbf", "exp"] as const
const REPLICATED_CLAIMS = ["iss", "sub", "aud"] as const

/** Seconds since the epoch, now. */
const epoch = () => Math.floor(Date.now() / 1000)

/**
 * `iat`, `nbf` and `exp` as jose checks them with `clockTolerance`. The errors
 * carry no claims: jose's would hold the decrypted payload, and errors get logged.
 */
function validateTimes(claims: Record<string, unknown>): void {
  for (const claim of TIME_CLAIMS) {
    if (claims[claim] !== undefined && typeof claims[claim] !== "number") {
      throw new JoseFailure(
        "JWTClaimValidationFailed",
        `"${claim}" claim must be a number`,
        undefined,
        { claim, reason: "invalid" },
      )
    }
  }
  const now = epoch()
  const { nbf, exp } = claims as { nbf?: number; exp?: number }
  if (nbf !== undefined && nbf > now + CLOCK_TOLERANCE) {
    throw new JoseFailure(
      "JWTClaimValidationFailed",
      '"nbf" claim timestamp check failed',
      undefined,
      { claim: "nbf", reason: "check_failed" },
    )
  }
  if (exp !== undefined && exp <= now - CLOCK_TOLERANCE) {
    throw new JoseFailure("JWTExpired", '"exp" claim timestamp check failed', undefined, {
      claim: "exp",
      reason: "check_failed",
    })
  }
}

/** A claim the header replicates must equal the encrypted one (RFC 7519 §5.3), as jose checks. */
function validateReplicated(header: JweHeader, claims: Record<string, unknown>): void {
  for (const claim of REPLICATED_CLAIMS) {
    const replicated = header[claim]
    if (replicated === undefined) continue
    const same =
      claim === "aud"
        ? JSON.stringify(replicated) === JSON.stringify(claims.aud)
        : replicated === claims[claim]
    if (!same) {
      throw new JoseFailure(
        "JWTClaimValidationFailed",
        `replicated "${claim}" claim header parameter mismatch`,
        undefined,
        { claim, reason: "mismatch" },
      )
    }
  }
}

async function aesGcmEncrypt(
  key: DerivedKey,
  iv: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array,
): Promise<{ ciphertext: Uint8Array; tag: Uint8Array }> {
  const node = nodePrimitives()
  if (node) return node.aesGcmEncrypt(key.raw, iv, plaintext, aad)
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      {
        name: "AES-GCM",
        iv: iv as Uint8Array<ArrayBuffer>,
        additionalData: aad as Uint8Array<ArrayBuffer>,
        tagLength: 128,
      },
      await webCryptoKey(key),
      plaintext as Uint8Array<ArrayBuffer>,
    ),
  )
  const split = sealed.byteLength - TAG_BYTES
  return { ciphertext: sealed.subarray(0, split), tag: sealed.subarray(split) }
}

/**
 * `claims` as a compact JWE under `key` (its `kid` in the protected header),
 * with `iat` (now), `exp` (now + `maxAge` seconds) and a random `jti`, as
 * jose's `EncryptJWT` would make it.
 */
export async function encryptToken(
  key: DerivedKey,
  claims: Record<string, unknown>,
  maxAge: number,
): Promise<string> {
  if (!isPlainObject(claims)) throw new TypeError("JWT Claims Set MUST be an object")
  const iat = epoch()
  const exp = iat + maxAge
  if (!Number.isFinite(exp)) throw new TypeError("Invalid exp input")
  const payload = { ...claims, iat, exp, jti: crypto.randomUUID() }
  const encodedHeader = encodeBase64url(JSON.stringify({ alg: ALG, enc: ENC, kid: key.kid }))
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
  const { ciphertext, tag } = await aesGcmEncrypt(
    key,
    iv,
    encoder.encode(JSON.stringify(payload)),
    encoder.encode(encodedHeader),
  )
  return `${encodedHeader}..${encodeBase64url(iv)}.${encodeBase64url(ciphertext)}.${encodeBase64url(tag)}`
}

/** The `kid` of a token's protected header, without checking anything else (`undefined` if unreadable). */
export function headerKid(ring: KeyRing, token: string): unknown {
  const encoded = token.slice(0, token.indexOf("."))
  const known = ring.knownHeaders.get(encoded)
  if (known) return known.kid
  try {
    const parsed: unknown = JSON.parse(strictDecoder.decode(decodeBase64url(encoded)))
    return isPlainObject(parsed) ? parsed.kid : undefined
  } catch {
    return undefined
  }
}
