/**
 * The signature of an ID Token signed with the client secret (`HS256`,
 * `HS384`, `HS512`; OIDC Core §10.1): a compact JWS (RFC 7515) checked with
 * Web Crypto's constant-time HMAC verification. Asymmetric signatures are
 * oauth4webapi's (against the issuer's JWKS).
 *
 * Why here and not jose: this is the only JWS the OAuth flow verifies itself,
 * and jose would add 46 modules to every app with an OAuth provider.
 * @module
 */
import { decodeBase64url } from "../../lib/base64url.js"
import { isPlainObject } from "../../jwt/jwe.js"

const HASHES: Record<string, string> = { HS256: "SHA-256", HS384: "SHA-384", HS512: "SHA-512" }
const strictDecoder = new TextDecoder("utf-8", { fatal: true })
const encoder = new TextEncoder()

/** The `alg` of a compact JWS's protected header; throws when the header cannot be read. */
export function jwsAlgorithm(token: string): unknown {
  const encoded = token.slice(0, token.indexOf("."))
  const header: unknown = JSON.parse(strictDecoder.decode(decodeBase64url(encoded)))
  if (!isPlainObject(header)) throw new TypeError("The JWS Protected Header is not an object")
  return header.alg
}

/** True when `token` is a compact JWS whose `HS*` signature `secret` makes. */
export async function verifyHmacJws(token: string, secret: string, alg: string): Promise<boolean> {
  const hash = HASHES[alg]
  const parts = token.split(".")
  if (!hash || parts.length !== 3) return false
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string]
  let header: unknown
  let signature: Uint8Array
  try {
    header = JSON.parse(strictDecoder.decode(decodeBase64url(encodedHeader)))
    decodeBase64url(encodedPayload)
    signature = decodeBase64url(encodedSignature)
  } catch {
    return false
  }
  // The algorithm checked is the one the token names; no extension (`crit`) is understood.
  if (!isPlainObject(header) || header.alg !== alg || header.crit !== undefined) return false
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash },
    false,
    ["verify"],
  )
  return crypto.subtle.verify(
    "HMAC",
    key,
    signature as Uint8Array<ArrayBuffer>,
    encoder.encode(`${encodedHeader}.${encodedPayload}`),
  )
}
