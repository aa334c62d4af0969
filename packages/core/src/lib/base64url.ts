/**
 * base64url (RFC 4648 §5) without padding, as JOSE uses it, decoded strictly:
 * only the URL-safe alphabet, never a length of 4n + 1, and `=` only where it
 * completes the last quantum (what jose's decoder, on `atob`, accepts, minus
 * the whitespace it would skip). Node's `Buffer` when the runtime has it,
 * `atob`/`btoa` elsewhere.
 * @module
 */
import { nodePrimitives } from "./crypto.js"

const ALPHABET = /^[A-Za-z0-9_-]*$/

/** True for a string the strict decoder accepts (the empty string encodes no bytes). */
export function isBase64url(value: string): boolean {
  const unpadded = value.length % 4 === 0 ? value.replace(/={1,2}$/, "") : value
  return unpadded.length % 4 !== 1 && ALPHABET.test(unpadded)
}

const invalid = () => new TypeError("The input is not base64url-encoded")

/** The bytes `value` encodes; throws a `TypeError` for anything {@link isBase64url} refuses. */
export function decodeBase64url(value: string): Uint8Array {
  const node = nodePrimitives()
  if (node) {
    // Node's decoder skips what is not in either base64 alphabet, so anything
    // skipped shows as missing bytes; the other alphabet and a dangling
    // character are refused here. Equivalent to isBase64url, in one pass.
    let end = value.length
    if (end % 4 === 0 && value.charCodeAt(end - 1) === 0x3d) {
      end -= value.charCodeAt(end - 2) === 0x3d ? 2 : 1
    }
    if (end % 4 === 1 || value.includes("+") || value.includes("/")) throw invalid()
    const bytes = node.base64urlDecode(value)
    if (bytes.byteLength !== Math.floor((end * 3) / 4)) throw invalid()
    return bytes
  }
  if (!isBase64url(value)) throw invalid()
  const binary = atob(value.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/"))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** `bytes`, or a string's UTF-8 bytes, as unpadded base64url. */
export function encodeBase64url(input: Uint8Array | string): string {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input
  const node = nodePrimitives()
  if (node) return node.base64urlEncode(bytes)
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")
}
