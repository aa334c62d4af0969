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

/** HKDF-SHA-256 (RFC 5869) of `secret`, `length` bytes. */
export async function hkdfSha256(
  secret: string,
  salt: string,
  info: string,
  length: number,
): Promise<Uint8Array> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveBits",
  ])
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode(salt), info: encoder.encode(info) },
    ikm,
    length * 8,
  )
  return new Uint8Array(bits)
}

/**
 * An HMAC-SHA-256 key for `secret`. No cache here: its owner keeps it (the resolved
 * configuration's KeyRing, a rate limiter), never a module-level map keyed by secrets.
 */
export function importHmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  )
}

/** HMAC-SHA-256 of `value` under `key`, hex. */
export async function hmacHex(key: CryptoKey | Promise<CryptoKey>, value: string): Promise<string> {
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

/** Synchronous primitives for the session check's hot path. */
export interface SyncPrimitives {
  /** AES-256-GCM decryption with a 16-byte tag; throws when the tag does not authenticate the data. */
  aesGcmDecrypt(
    key: Uint8Array,
    iv: Uint8Array,
    ciphertext: Uint8Array,
    tag: Uint8Array,
    aad: Uint8Array,
  ): Uint8Array
  /** base64url to bytes, for input already checked to hold only base64url characters and a valid length. */
  base64urlDecode(input: string): Uint8Array
}

/** The parts of `node:crypto` and `node:buffer` used; declared here so the core needs no Node types. */
interface NodeCryptoSubset {
  createDecipheriv(
    algorithm: "aes-256-gcm",
    key: Uint8Array,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): {
    setAAD(aad: Uint8Array): unknown
    setAuthTag(tag: Uint8Array): unknown
    update(data: Uint8Array): Uint8Array
    final(): Uint8Array
  }
}
interface NodeBufferSubset {
  Buffer: { from(input: string, encoding: "base64url"): Uint8Array }
}

/**
 * `node:crypto` and `node:buffer` primitives when the runtime offers them through
 * `process.getBuiltinModule` (Node >= 20.16, Bun, Deno); otherwise `undefined`
 * and callers use Web Crypto and jose.
 *
 * Why: on Node every `crypto.subtle` call is a round trip through the libuv
 * thread pool, about 50 µs, several times what the whole session check costs
 * otherwise. The modules are looked up by name at run time, so the core keeps no
 * static dependency on Node and runs unchanged elsewhere.
 */
export const syncPrimitives: SyncPrimitives | undefined = (() => {
  try {
    const getBuiltinModule = (
      globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
    ).process?.getBuiltinModule
    if (typeof getBuiltinModule !== "function") return undefined
    const crypto = getBuiltinModule("node:crypto") as NodeCryptoSubset | undefined
    const buffer = getBuiltinModule("node:buffer") as NodeBufferSubset | undefined
    if (
      typeof crypto?.createDecipheriv !== "function" ||
      typeof buffer?.Buffer?.from !== "function"
    )
      return undefined
    const { Buffer } = buffer
    return {
      aesGcmDecrypt(key, iv, ciphertext, tag, aad) {
        const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv, { authTagLength: 16 })
        decipher.setAAD(aad)
        decipher.setAuthTag(tag)
        const head = decipher.update(ciphertext)
        const tail = decipher.final()
        if (tail.byteLength === 0) return head
        const out = new Uint8Array(head.byteLength + tail.byteLength)
        out.set(head)
        out.set(tail, head.byteLength)
        return out
      },
      base64urlDecode: (input) => Buffer.from(input, "base64url"),
    }
  } catch {
    return undefined
  }
})()
