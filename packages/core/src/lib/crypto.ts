/**
 * Small cryptographic helpers on Web Crypto, so the core runs on any runtime
 * that has `Request`/`Response` (Node, Deno, Bun, workers).
 * @module
 */

const encoder = new TextEncoder()

export function toHex(bytes: Uint8Array): string {
  let hex = ""
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0")
  return hex
}

/** `bytes` random bytes from the CSPRNG, hex-encoded. */
export function randomHex(bytes = 32): string {
  return toHex(crypto.getRandomValues(new Uint8Array(bytes)))
}

export async function sha256Hex(value: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value))))
}

const hmacKeys = new Map<string, Promise<CryptoKey>>()

/** HMAC-SHA-256 of `value` under `secret`, hex. The imported key is cached per secret. */
export async function hmacHex(secret: string, value: string): Promise<string> {
  let key = hmacKeys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
    if (hmacKeys.size > 64) hmacKeys.clear()
    hmacKeys.set(secret, key)
  }
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", await key, encoder.encode(value))))
}

/**
 * Compares two strings in time that depends only on their lengths, not on where
 * they differ. Callers compare fixed-length values (hex digests, tokens).
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a)
  const right = encoder.encode(b)
  let diff = left.length ^ right.length
  const length = Math.max(left.length, right.length)
  for (let i = 0; i < length; i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0)
  return diff === 0
}
