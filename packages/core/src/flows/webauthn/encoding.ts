/**
 * Credential ids and public keys are stored as base64url. Reading also accepts
 * standard base64 (with `+`, `/`, `=`), which other libraries have stored.
 * @module
 */
import { decodeBase64url, encodeBase64url } from "../../lib/base64url.js"

export function toBase64Url(bytes: Uint8Array): string {
  return encodeBase64url(bytes)
}

export function fromBase64Url(value: string): Uint8Array<ArrayBuffer> {
  // Whitespace is skipped, as `atob` does.
  return decodeBase64url(
    value.replace(/\s/g, "").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
  ) as Uint8Array<ArrayBuffer>
}
