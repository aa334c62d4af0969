/**
 * `A256CBC-HS512` decryption (RFC 7518 §5.2.2 and §5.2.5), the content
 * encryption of Auth.js v5's session tokens, which Tessera reads but never
 * makes (see `jwt/authjs.ts`).
 *
 * The 64-byte key is two keys: the first 32 bytes for HMAC-SHA-512, the last
 * 32 for AES-256-CBC. The tag is the first 32 bytes of the HMAC over
 * `AAD || IV || ciphertext || AL` (AL: the AAD's length in bits, 64-bit big
 * endian). It is checked before anything is decrypted, and compared in full
 * whatever the first differing byte (a padding oracle needs a decryption to
 * tell padding errors from tag errors: none happens without a valid tag).
 *
 * Synchronous on `node:crypto` where the runtime has it, Web Crypto elsewhere,
 * as for `A256GCM` (`jwt/jwe.ts`).
 * @module
 */
import { nodePrimitives, timingSafeEqualBytes } from "../lib/crypto.js"
import { JoseFailure } from "./jose-errors.js"
import type { JweBody } from "./jwe.js"

export const CBC_KEY_BYTES = 64
export const CBC_IV_BYTES = 16
const HALF = CBC_KEY_BYTES / 2

/** AL: the bit length of `aad` as a 64-bit big-endian integer. */
function bitLength(aad: Uint8Array): Uint8Array {
  const bits = aad.byteLength * 8
  const al = new Uint8Array(8)
  const view = new DataView(al.buffer)
  view.setUint32(0, Math.floor(bits / 2 ** 32))
  view.setUint32(4, bits >>> 0)
  return al
}

function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.byteLength
  }
  return out
}

async function webCryptoMac(macKey: Uint8Array, parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    macKey as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-512" },
    false,
    ["sign"],
  )
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, concat(parts)))
}

async function webCryptoCbcDecrypt(
  encKey: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    encKey as Uint8Array<ArrayBuffer>,
    "AES-CBC",
    false,
    ["decrypt"],
  )
  const plaintext = await crypto.subtle.decrypt(
    { name: "AES-CBC", iv: iv as Uint8Array<ArrayBuffer> },
    key,
    ciphertext as Uint8Array<ArrayBuffer>,
  )
  return new Uint8Array(plaintext)
}

/**
 * The plaintext of an `A256CBC-HS512` body under the 64-byte `key`, with `aad`
 * (the encoded protected header). jose's `JWEDecryptionFailed` (as a
 * `JoseFailure`) for a tag that does not authenticate the rest, and for a
 * ciphertext whose padding is not PKCS#7's.
 */
export async function decryptCbcHmac(
  key: Uint8Array,
  { iv, ciphertext, tag }: JweBody,
  aad: Uint8Array,
): Promise<Uint8Array> {
  if (key.byteLength !== CBC_KEY_BYTES) throw new TypeError("A256CBC-HS512 takes a 64-byte key")
  const macKey = key.subarray(0, HALF)
  const encKey = key.subarray(HALF)
  const macInput = [aad, iv, ciphertext, bitLength(aad)]
  const node = nodePrimitives()
  try {
    const mac = node ? node.hmacSha512(macKey, macInput) : await webCryptoMac(macKey, macInput)
    if (!timingSafeEqualBytes(mac.subarray(0, HALF), tag))
      throw new JoseFailure("JWEDecryptionFailed")
    return node
      ? node.aesCbcDecrypt(encKey, iv, ciphertext)
      : await webCryptoCbcDecrypt(encKey, iv, ciphertext)
  } catch (cause) {
    if (cause instanceof JoseFailure) throw cause
    throw new JoseFailure("JWEDecryptionFailed", undefined, { cause })
  }
}
