/**
 * Session tokens: JWTs encrypted as compact JWE (`alg: "dir"`, `enc: "A256GCM"`).
 *
 * The content key is derived from the secret with HKDF-SHA-256:
 * `HKDF(ikm = secret, salt = cookie name, info = "Tessera Generated Encryption Key (<salt>)", 32 bytes)`.
 * Using the cookie name as salt means a token issued for one cookie cannot be
 * replayed in another. Keys are derived once per (secret, salt) and cached.
 * The protected header carries `kid` (the key's JWK thumbprint) so that, with a
 * list of secrets, decoding picks the right key at once instead of trying each.
 *
 * @example
 * ```ts
 * import { encode, decode } from "@tessera/core/jwt"
 * const token = await encode({ token: { sub: "1" }, secret, salt: "tessera.session-token" })
 * const payload = await decode({ token, secret, salt: "tessera.session-token" })
 * ```
 * @module
 */
import { base64url, calculateJwkThumbprint, EncryptJWT, errors, jwtDecrypt } from "jose"
import { parseCookieHeader, readChunkedCookie } from "./http/cookies.js"
import { syncPrimitives, type SyncPrimitives } from "./lib/crypto.js"
import type { Awaitable } from "./types.js"

export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  /** The user id. */
  sub?: string
  iat?: number
  exp?: number
  jti?: string
}

/** The decoded session token. Extend it through module augmentation. */
export interface JWT extends Record<string, unknown>, DefaultJWT {}

export interface JWTEncodeParams<Payload = JWT> {
  /** Seconds until the token expires. Default 30 days. */
  maxAge?: number
  /** The cookie name the token is stored in; part of the key derivation. */
  salt: string
  /** One secret, or a list: encode uses the first. */
  secret: string | string[]
  token?: Payload
}

export interface JWTDecodeParams {
  salt: string
  /** One secret, or a list: decode accepts a token made with any of them (rotation). */
  secret: string | string[]
  token?: string
}

export interface JWTOptions {
  /** Seconds. Default: `session.maxAge`. */
  maxAge: number
  encode: (params: JWTEncodeParams) => Awaitable<string>
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60
const ENC = "A256GCM"
const CLOCK_TOLERANCE = 15

interface DerivedKey {
  key: CryptoKey
  /** The same key as bytes, for the synchronous decrypt path. */
  raw: Uint8Array
  kid: string
}

/** Derived keys by `salt \0 secret`. Bounded: configs have a handful of secrets and cookie names. */
const derivedKeys = new Map<string, Promise<DerivedKey>>()
/** The same keys once derived, so the hot path can use them without awaiting a promise. */
const readyKeys = new Map<string, DerivedKey>()
const MAX_CACHED_KEYS = 256

/**
 * The raw 32-byte content key for `secret` and `salt`. Exported so that a
 * token made by `encode` can be opened with `jose.jwtDecrypt` directly.
 */
export async function deriveEncryptionKey(secret: string, salt: string): Promise<Uint8Array> {
  const encoder = new TextEncoder()
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveBits",
  ])
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode(salt),
      info: encoder.encode(`Tessera Generated Encryption Key (${salt})`),
    },
    ikm,
    256,
  )
  return new Uint8Array(bits)
}

function getKey(secret: string, salt: string): Promise<DerivedKey> {
  const cacheKey = `${salt}\0${secret}`
  let entry = derivedKeys.get(cacheKey)
  if (!entry) {
    entry = (async () => {
      const raw = await deriveEncryptionKey(secret, salt)
      const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(raw) }, "sha256")
      const key = await crypto.subtle.importKey(
        "raw",
        raw as Uint8Array<ArrayBuffer>,
        "AES-GCM",
        false,
        ["encrypt", "decrypt"],
      )
      return { key, raw, kid }
    })()
    if (derivedKeys.size >= MAX_CACHED_KEYS) {
      const oldest = derivedKeys.keys().next().value!
      derivedKeys.delete(oldest)
      readyKeys.delete(oldest)
    }
    derivedKeys.set(cacheKey, entry)
    entry.then(
      (key) => derivedKeys.get(cacheKey) === entry && readyKeys.set(cacheKey, key),
      // A failed derivation must not poison the cache.
      () => derivedKeys.delete(cacheKey),
    )
  }
  return entry
}

function secretsOf(secret: string | string[]): string[] {
  const list = Array.isArray(secret) ? secret : [secret]
  if (list.length === 0 || list.some((s) => typeof s !== "string" || s.length === 0)) {
    throw new TypeError("A non-empty secret is required to encode or decode session tokens")
  }
  return list
}

/** Encrypts `token` into a compact JWE with the first secret. Adds `iat`, `exp` and `jti`. */
export async function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  const { token = {}, secret, salt, maxAge = DEFAULT_MAX_AGE } = params
  const { key, kid } = await getKey(secretsOf(secret)[0]!, salt)
  const now = Math.floor(Date.now() / 1000)
  return new EncryptJWT(token as Record<string, unknown>)
    .setProtectedHeader({ alg: "dir", enc: ENC, kid })
    .setIssuedAt(now)
    .setExpirationTime(now + maxAge)
    .setJti(crypto.randomUUID())
    .encrypt(key)
}

/**
 * Decrypts and validates a token made by `encode` with any of the secrets.
 * Returns `null` for a missing token; throws for a token that is malformed,
 * tampered with, expired, or made with another secret.
 */
export async function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  const { token, secret, salt } = params
  if (!token) return null
  const secrets = secretsOf(secret)
  const fast = syncPrimitives && (await decodeFast(syncPrimitives, token, secrets, salt))
  if (fast) return fast as Payload
  const { payload } = await jwtDecrypt(
    token,
    async ({ kid, enc }) => {
      if (enc !== ENC) throw new TypeError("Unsupported token encryption")
      return (await keyFor(kid, secrets, salt)).key
    },
    {
      clockTolerance: CLOCK_TOLERANCE,
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: [ENC],
    },
  )
  return payload as Payload
}

/** The key a token's `kid` names; tokens without kid (made by other encoders) get the current secret's key. */
async function keyFor(kid: unknown, secrets: string[], salt: string): Promise<DerivedKey> {
  if (kid === undefined) return getKey(secrets[0]!, salt)
  for (const s of secrets) {
    const derived = await getKey(s, salt)
    if (derived.kid === kid) return derived
  }
  throw new TypeError("No secret matches the token's key id")
}

/** `keyFor` without waiting, when every key it may need is derived already; otherwise `undefined`. */
function readyKeyFor(kid: unknown, secrets: string[], salt: string): DerivedKey | undefined {
  for (const s of kid === undefined ? secrets.slice(0, 1) : secrets) {
    const key = readyKeys.get(`${salt}\0${s}`)
    if (!key) return undefined
    if (kid === undefined || key.kid === kid) return key
  }
  return undefined
}

const B64URL = /^[A-Za-z0-9_-]+$/
/**
 * What jose's decoder (`atob`, "forgiving base64") accepts: base64url characters,
 * never a length of 4n + 1, and padding only where it completes a quantum.
 */
function isBase64url(value: string): boolean {
  const unpadded = value.length % 4 === 0 ? value.replace(/={1,2}$/, "") : value
  return unpadded.length % 4 !== 1 && B64URL.test(unpadded)
}
const asciiEncoder = new TextEncoder()
const strictDecoder = new TextDecoder("utf-8", { fatal: true })
/** Protected headers seen on tokens that decrypted, by their encoded form: a handful (one per key). */
const knownHeaders = new Map<string, { kid: unknown }>()

/**
 * The session check's hot path: the same checks `jwtDecrypt` makes for the tokens
 * `encode` produces (compact JWE, `dir`, `A256GCM`, header `alg`/`enc`/`kid` only,
 * then `iat`/`nbf`/`exp` with the same clock tolerance), with a synchronous
 * decrypt. Returns `undefined` for any other shape, which then goes through jose,
 * so nothing jose would refuse is accepted here. Throws jose's error classes.
 */
async function decodeFast(
  sync: SyncPrimitives,
  token: string,
  secrets: string[],
  salt: string,
): Promise<JWT | undefined> {
  const parts = token.split(".")
  if (parts.length !== 5 || parts[1] !== "") return undefined
  const [encodedHeader, , encodedIv, encodedCiphertext, encodedTag] = parts as [
    string,
    string,
    string,
    string,
    string,
  ]
  let header = knownHeaders.get(encodedHeader)
  if (!header) {
    let parsed: Record<string, unknown>
    try {
      parsed = JSON.parse(strictDecoder.decode(base64url.decode(encodedHeader)))
    } catch {
      return undefined
    }
    if (!isPlainObject(parsed) || parsed.alg !== "dir" || parsed.enc !== ENC) return undefined
    if (Object.keys(parsed).some((name) => name !== "alg" && name !== "enc" && name !== "kid"))
      return undefined
    header = { kid: parsed.kid }
  }
  if (!isBase64url(encodedIv) || !isBase64url(encodedCiphertext) || !isBase64url(encodedTag)) {
    throw new errors.JWEInvalid("Malformed JWE")
  }
  const iv = sync.base64urlDecode(encodedIv)
  const tag = sync.base64urlDecode(encodedTag)
  if (iv.byteLength !== 12) throw new errors.JWEInvalid("Invalid Initialization Vector length")
  if (tag.byteLength !== 16) throw new errors.JWEInvalid("Invalid Authentication Tag length")
  const { raw } =
    readyKeyFor(header.kid, secrets, salt) ?? (await keyFor(header.kid, secrets, salt))
  let plaintext: Uint8Array
  try {
    plaintext = sync.aesGcmDecrypt(
      raw,
      iv,
      sync.base64urlDecode(encodedCiphertext),
      tag,
      asciiEncoder.encode(encodedHeader),
    )
  } catch (cause) {
    throw new errors.JWEDecryptionFailed(undefined, { cause })
  }
  if (!knownHeaders.has(encodedHeader)) {
    if (knownHeaders.size >= 32) knownHeaders.clear()
    knownHeaders.set(encodedHeader, header)
  }
  let claims: unknown
  try {
    claims = JSON.parse(strictDecoder.decode(plaintext))
  } catch (cause) {
    throw new errors.JWTInvalid("JWT Claims Set must be a top-level JSON object", { cause })
  }
  if (!isPlainObject(claims))
    throw new errors.JWTInvalid("JWT Claims Set must be a top-level JSON object")
  return validateTimes(claims)
}

/** `iat`, `nbf` and `exp` as jose checks them with `clockTolerance`. */
function validateTimes(claims: Record<string, unknown>): JWT {
  const now = Math.floor(Date.now() / 1000)
  for (const claim of ["iat", "nbf", "exp"] as const) {
    if (claims[claim] !== undefined && typeof claims[claim] !== "number") {
      throw new errors.JWTClaimValidationFailed(
        `"${claim}" claim must be a number`,
        claims,
        claim,
        "invalid",
      )
    }
  }
  const { nbf, exp } = claims as { nbf?: number; exp?: number }
  if (nbf !== undefined && nbf > now + CLOCK_TOLERANCE) {
    throw new errors.JWTClaimValidationFailed(
      '"nbf" claim timestamp check failed',
      claims,
      "nbf",
      "check_failed",
    )
  }
  if (exp !== undefined && exp <= now - CLOCK_TOLERANCE) {
    throw new errors.JWTExpired('"exp" claim timestamp check failed', claims, "exp", "check_failed")
  }
  return claims as JWT
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

export interface GetTokenParams<R extends boolean = false> {
  /** The request (or anything with its headers) carrying the session cookie or `Authorization: Bearer`. */
  req: Request | { headers: Headers | Record<string, string> }
  /** Default: `AUTH_SECRET` (and `AUTH_SECRET_1..3`) from the environment. */
  secret?: string | string[]
  /** Use the `__Secure-` cookie name. Default: true when the request URL is https. */
  secureCookie?: boolean
  /** Default `tessera.session-token` (with `__Secure-` when secure). */
  cookieName?: string
  /** Default: the cookie name. */
  salt?: string
  /** Return the encrypted token instead of decoding it. */
  raw?: R
  decode?: JWTOptions["decode"]
}

/**
 * Reads the session token from the request's cookies (chunked or not) or its
 * `Authorization: Bearer` header and decodes it. Returns `null` when there is no
 * valid token; never throws for a bad token.
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string | null : JWT | null> {
  const { req, raw } = params
  const headers = req.headers instanceof Headers ? req.headers : new Headers(req.headers)
  const secureCookie =
    params.secureCookie ??
    ("url" in req && typeof req.url === "string" ? req.url.startsWith("https:") : false)
  const cookieName =
    params.cookieName ?? (secureCookie ? "__Secure-tessera.session-token" : "tessera.session-token")
  const salt = params.salt ?? cookieName

  let token = readChunkedCookie(parseCookieHeader(headers.get("cookie")), cookieName)
  const authorization = headers.get("authorization")
  if (!token && authorization?.startsWith("Bearer ")) {
    token = authorization.slice("Bearer ".length).trim()
  }
  if (!token) return null
  if (raw) return token as any

  const secret = params.secret ?? secretsFromEnv()
  if (!secret || (Array.isArray(secret) && secret.length === 0)) {
    throw new TypeError("getToken needs a secret: pass `secret` or set AUTH_SECRET")
  }
  try {
    return (await (params.decode ?? decode)({ token, secret, salt })) as any
  } catch {
    return null
  }
}

function secretsFromEnv(): string[] | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env
  if (!env) return undefined
  const list = [env.AUTH_SECRET, env.AUTH_SECRET_1, env.AUTH_SECRET_2, env.AUTH_SECRET_3].filter(
    (s): s is string => !!s,
  )
  return list.length ? list : undefined
}
