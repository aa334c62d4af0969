/**
 * Small cryptographic helpers that run on any runtime with `Request`/`Response`
 * (Node, Deno, Bun, workers): Web Crypto everywhere, and `node:crypto`'s
 * synchronous primitives where the runtime offers them.
 *
 * Why both: on Node every `crypto.subtle` call is a round trip through the libuv
 * thread pool (about 50 µs, more than a whole session check), and the first one
 * costs milliseconds; `node:crypto`'s `createHash`, `createHmac` and
 * `createDecipheriv` answer synchronously in a few microseconds. The Node
 * modules are looked up by name at run time (`process.getBuiltinModule`), on
 * first use, so the core keeps no static dependency on Node, does nothing when
 * it is imported, and runs unchanged elsewhere.
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

/** SHA-256 of `value` (UTF-8), hex. */
export async function sha256Hex(value: string): Promise<string> {
  const node = nodePrimitives()
  if (node) return node.sha256Hex(value)
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value))))
}

/** SHA-256 or SHA-512 of `bytes`. */
export async function digest(hash: "SHA-256" | "SHA-512", bytes: Uint8Array): Promise<Uint8Array> {
  const node = nodePrimitives()
  if (node) return node.digest(hash === "SHA-256" ? "sha256" : "sha512", bytes)
  return new Uint8Array(await crypto.subtle.digest(hash, bytes as Uint8Array<ArrayBuffer>))
}

/** HKDF-SHA-256 (RFC 5869) of `secret`, `length` bytes. */
export async function hkdfSha256(
  secret: string,
  salt: string,
  info: string,
  length: number,
): Promise<Uint8Array> {
  const ikm = encoder.encode(secret)
  const saltBytes = encoder.encode(salt)
  const infoBytes = encoder.encode(info)
  const node = nodePrimitives()
  if (node) return node.hkdf(ikm, saltBytes, infoBytes, length)
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"])
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: saltBytes, info: infoBytes },
    key,
    length * 8,
  )
  return new Uint8Array(bits)
}

/**
 * An HMAC-SHA-256 key for `secret`, for Web Crypto (where `node:crypto` is missing). No cache
 * here: its owner keeps it (the resolved configuration's KeyRing, a rate limiter), never a
 * module-level map keyed by secrets.
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

/** HMAC-SHA-256 of `value` under `key`, hex, on Web Crypto. */
export async function hmacHex(key: CryptoKey | Promise<CryptoKey>, value: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", await key, encoder.encode(value))))
}

/**
 * Compares two strings in time that depends only on their lengths, not on where
 * they differ. Callers compare fixed-length values (hex digests, tokens).
 */
export function timingSafeEqual(a: string, b: string): boolean {
  return timingSafeEqualBytes(encoder.encode(a), encoder.encode(b))
}

/** {@link timingSafeEqual} for bytes: every byte is compared, wherever the first difference is. */
export function timingSafeEqualBytes(left: Uint8Array, right: Uint8Array): boolean {
  let diff = left.length ^ right.length
  const length = Math.max(left.length, right.length)
  for (let i = 0; i < length; i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0)
  return diff === 0
}

/** What `node:crypto` and `node:buffer` give the core, synchronously. */
export interface NodePrimitives {
  /** AES-256-GCM decryption with a 16-byte tag; throws when the tag does not authenticate the data. */
  aesGcmDecrypt(
    key: Uint8Array,
    iv: Uint8Array,
    ciphertext: Uint8Array,
    tag: Uint8Array,
    aad: Uint8Array,
  ): Uint8Array
  /** AES-256-GCM encryption: the ciphertext and its 16-byte tag. */
  aesGcmEncrypt(
    key: Uint8Array,
    iv: Uint8Array,
    plaintext: Uint8Array,
    aad: Uint8Array,
  ): { ciphertext: Uint8Array; tag: Uint8Array }
  /** AES-256-CBC decryption, PKCS#7 padding removed; throws for a padding that is not PKCS#7's. */
  aesCbcDecrypt(key: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array
  /** HKDF-SHA-256 (RFC 5869). */
  hkdf(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length: number): Uint8Array
  digest(hash: "sha256" | "sha512", data: Uint8Array): Uint8Array
  /** HMAC-SHA-512 under `key` of the concatenation of `parts`. */
  hmacSha512(key: Uint8Array, parts: readonly Uint8Array[]): Uint8Array
  sha256Hex(value: string): string
  hmacSha256Hex(key: string, value: string): string
  /** base64url to bytes, for input already checked to hold only base64url characters and a valid length. */
  base64urlDecode(input: string): Uint8Array
  base64urlEncode(bytes: Uint8Array): string
  /**
   * UTF-8 to text, strictly, as `new TextDecoder("utf-8", { fatal: true })`
   * decodes (a leading BOM dropped, invalid UTF-8 a `TypeError`), in a third of
   * the time: `buffer.isUtf8` validates, `Buffer#toString` decodes.
   */
  utf8Decode(bytes: Uint8Array): string
}

/** The parts of `node:crypto` and `node:buffer` used; declared here so the core needs no Node types. */
interface NodeHash {
  update(data: Uint8Array | string): NodeHash
  digest(): Uint8Array
  digest(encoding: "hex"): string
}
interface NodeCryptoSubset {
  createDecipheriv(
    algorithm: "aes-256-gcm" | "aes-256-cbc",
    key: Uint8Array,
    iv: Uint8Array,
    options?: { authTagLength: number },
  ): {
    setAAD(aad: Uint8Array): unknown
    setAuthTag(tag: Uint8Array): unknown
    update(data: Uint8Array): Uint8Array
    final(): Uint8Array
  }
  createCipheriv(
    algorithm: "aes-256-gcm",
    key: Uint8Array,
    iv: Uint8Array,
    options: { authTagLength: number },
  ): {
    setAAD(aad: Uint8Array): unknown
    update(data: Uint8Array): Uint8Array
    final(): Uint8Array
    getAuthTag(): Uint8Array
  }
  hkdfSync(
    digest: "sha256",
    ikm: Uint8Array,
    salt: Uint8Array,
    info: Uint8Array,
    length: number,
  ): ArrayBuffer
  createHash(algorithm: "sha256" | "sha512"): NodeHash
  createHmac(algorithm: "sha256" | "sha512", key: string | Uint8Array): NodeHash
}
interface NodeBufferSubset {
  Buffer: {
    from(input: string, encoding: "base64url"): Uint8Array
    from(input: Uint8Array): { toString(encoding: "base64url"): string }
    from(
      buffer: ArrayBufferLike,
      offset: number,
      length: number,
    ): { toString(encoding: "utf8"): string }
  }
  isUtf8?: (input: Uint8Array) => boolean
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array {
  if (tail.byteLength === 0) return head
  const out = new Uint8Array(head.byteLength + tail.byteLength)
  out.set(head)
  out.set(tail, head.byteLength)
  return out
}

/**
 * The runtime's `process.getBuiltinModule`, read (not called) when this module
 * is evaluated, so that a runtime without it is known from the start.
 */
const getBuiltinModule = (
  globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
).process?.getBuiltinModule

function loadNodePrimitives(): NodePrimitives | undefined {
  try {
    if (typeof getBuiltinModule !== "function") return undefined
    const crypto = getBuiltinModule("node:crypto") as NodeCryptoSubset | undefined
    const buffer = getBuiltinModule("node:buffer") as NodeBufferSubset | undefined
    if (
      typeof crypto?.createDecipheriv !== "function" ||
      typeof crypto.createCipheriv !== "function" ||
      typeof crypto.hkdfSync !== "function" ||
      typeof crypto.createHash !== "function" ||
      typeof crypto.createHmac !== "function" ||
      typeof buffer?.Buffer?.from !== "function"
    )
      return undefined
    const { Buffer, isUtf8 } = buffer
    const strictDecoder = new TextDecoder("utf-8", { fatal: true })
    return {
      aesGcmDecrypt(key, iv, ciphertext, tag, aad) {
        const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv, { authTagLength: 16 })
        decipher.setAAD(aad)
        decipher.setAuthTag(tag)
        const head = decipher.update(ciphertext)
        return concat(head, decipher.final())
      },
      aesGcmEncrypt(key, iv, plaintext, aad) {
        const cipher = crypto.createCipheriv("aes-256-gcm", key, iv, { authTagLength: 16 })
        cipher.setAAD(aad)
        const head = cipher.update(plaintext)
        return { ciphertext: concat(head, cipher.final()), tag: cipher.getAuthTag() }
      },
      aesCbcDecrypt(key, iv, ciphertext) {
        const decipher = crypto.createDecipheriv("aes-256-cbc", key, iv)
        const head = decipher.update(ciphertext)
        return concat(head, decipher.final())
      },
      hkdf: (ikm, salt, info, length) =>
        new Uint8Array(crypto.hkdfSync("sha256", ikm, salt, info, length)),
      digest: (hash, data) => crypto.createHash(hash).update(data).digest(),
      hmacSha512(key, parts) {
        const hmac = crypto.createHmac("sha512", key)
        for (const part of parts) hmac.update(part)
        return hmac.digest()
      },
      sha256Hex: (value) => crypto.createHash("sha256").update(value).digest("hex"),
      hmacSha256Hex: (key, value) => crypto.createHmac("sha256", key).update(value).digest("hex"),
      base64urlDecode: (input) => Buffer.from(input, "base64url"),
      base64urlEncode: (bytes) => Buffer.from(bytes).toString("base64url"),
      utf8Decode:
        typeof isUtf8 === "function"
          ? (bytes) => {
              if (!isUtf8(bytes)) throw new TypeError("The data is not valid UTF-8")
              const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
                "utf8",
              )
              return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
            }
          : (bytes) => strictDecoder.decode(bytes),
    }
  } catch {
    return undefined
  }
}

let node: NodePrimitives | null | undefined

/**
 * `node:crypto` and `node:buffer` primitives when the runtime offers them through
 * `process.getBuiltinModule` (Node >= 20.16, Bun, Deno); otherwise `undefined`
 * and callers use Web Crypto. Looked up on the first call, not at import.
 */
export function nodePrimitives(): NodePrimitives | undefined {
  if (node === undefined) node = loadNodePrimitives() ?? null
  return node ?? undefined
}
