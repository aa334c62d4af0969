/**
 * TOTP keys at rest: encrypted (AES-256-GCM) with a key derived from the
 * configuration's secret, so a copy of the database alone cannot produce
 * codes. `v1.<kid>.<iv>.<ciphertext>`: the `kid` names the secret of a
 * rotation it was made with, so keys stored before a rotation still open.
 * @module
 */
import { base64url } from "jose"
import type { KeyRing } from "../jwt/keys.js"

const SALT = "tessera.two-factor-key"
const USER = new TextEncoder()

/** Encrypts `key`, bound to `userId` (as additional data: a row copied to another user does not open). */
export async function sealKey(ring: KeyRing, userId: string, key: Uint8Array): Promise<string> {
  const { key: aes, kid } = await ring.key(SALT)
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: USER.encode(userId) },
    aes,
    key as Uint8Array<ArrayBuffer>,
  )
  return `v1.${kid}.${base64url.encode(iv)}.${base64url.encode(new Uint8Array(sealed))}`
}

/** The key sealed in `value` for `userId`; throws when it does not open. */
export async function openKey(ring: KeyRing, userId: string, value: string): Promise<Uint8Array> {
  const [version, kid, iv, data, ...rest] = value.split(".")
  if (version !== "v1" || !kid || !iv || !data || rest.length)
    throw new TypeError("Not a sealed TOTP key")
  const { key } = await ring.keyFor(kid, SALT)
  const opened = await crypto.subtle.decrypt(
    {
      name: "AES-GCM",
      iv: base64url.decode(iv) as Uint8Array<ArrayBuffer>,
      additionalData: USER.encode(userId),
    },
    key,
    base64url.decode(data) as Uint8Array<ArrayBuffer>,
  )
  return new Uint8Array(opened)
}
