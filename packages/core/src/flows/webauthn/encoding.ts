/**
 * Credential ids and public keys are stored as base64url. Reading also accepts
 * standard base64 (with `+`, `/`, `=`), which other libraries have stored.
 * @module
 */
import { base64url } from "jose"

export function toBase64Url(bytes: Uint8Array): string {
  return base64url.encode(bytes)
}

export function fromBase64Url(value: string): Uint8Array<ArrayBuffer> {
  return base64url.decode(
    value.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
  ) as Uint8Array<ArrayBuffer>
}
