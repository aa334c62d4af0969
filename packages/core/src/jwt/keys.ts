/**
 * Keys derived from the configured secrets, derived once and kept by their
 * owner: a resolved configuration holds one `KeyRing` for its secrets, so no
 * module-level cache is keyed by a secret and a configuration's keys go away
 * with it.
 *
 * Encryption keys: `HKDF-SHA-256(ikm = secret, salt = cookie name, info =
 * "Tessera Generated Encryption Key (<salt>)", 32 bytes)`. The cookie name as
 * salt means a token issued for one cookie cannot be replayed in another. Each
 * key's `kid` is its JWK thumbprint, so a token names the secret it was made
 * with and decoding picks the key at once.
 * @module
 */
import { encodeBase64url } from "../lib/base64url.js"
import { digest, hkdfSha256, hmacHex, importHmacKey, nodePrimitives } from "../lib/crypto.js"
import type { DecryptedToken, KnownHeader } from "./jwe.js"

const encoder = new TextEncoder()

export interface DerivedKey {
  /** The 32-byte content key, for `node:crypto` (and for importing into Web Crypto). */
  raw: Uint8Array
  kid: string
  /** The same key imported into Web Crypto, made on first use where `node:crypto` is missing. */
  webCryptoKey?: Promise<CryptoKey>
}

/**
 * The raw 32-byte content key for `secret` and `salt`. Exported (from
 * `@tessera/core/jwt`) so that a token made by `encode` can be opened with
 * `jose.jwtDecrypt` directly.
 *
 * @param secret The secret (32+ characters).
 * @param salt The cookie name the key is for.
 * @see [RFC 5869, HKDF](https://www.rfc-editor.org/rfc/rfc5869.html)
 */
export async function deriveEncryptionKey(secret: string, salt: string): Promise<Uint8Array> {
  return hkdfSha256(secret, salt, `Tessera Generated Encryption Key (${salt})`, 32)
}

/**
 * The JWK thumbprint (RFC 7638) of a symmetric key: the JSON of its required
 * members, sorted (`{"k":...,"kty":"oct"}`), hashed, base64url. What jose's
 * `calculateJwkThumbprint` gives for `{ kty: "oct", k }`.
 */
export async function jwkThumbprint(
  raw: Uint8Array,
  hash: "SHA-256" | "SHA-512" = "SHA-256",
): Promise<string> {
  const jwk = JSON.stringify({ k: encodeBase64url(raw), kty: "oct" })
  return encodeBase64url(await digest(hash, encoder.encode(jwk)))
}

async function deriveKey(secret: string, salt: string): Promise<DerivedKey> {
  const raw = await deriveEncryptionKey(secret, salt)
  return { raw, kid: await jwkThumbprint(raw) }
}

/** `key` imported into Web Crypto for AES-GCM, once. */
export function webCryptoKey(key: DerivedKey): Promise<CryptoKey> {
  key.webCryptoKey ??= crypto.subtle.importKey(
    "raw",
    key.raw as Uint8Array<ArrayBuffer>,
    "AES-GCM",
    false,
    ["encrypt", "decrypt"],
  )
  return key.webCryptoKey
}

/** The keys of one list of secrets: the first is current (encodes, signs), all are accepted. */
export class KeyRing {
  /** Promises by `index \0 salt`, so concurrent first uses derive once. */
  readonly #pending = new Map<string, Promise<DerivedKey>>()
  /** The same keys once derived, by salt and secret index, so the hot path uses them without awaiting. */
  readonly #ready = new Map<string, DerivedKey[]>()
  /** Web Crypto HMAC keys, only where `node:crypto` is missing. */
  readonly #hmacKeys: (Promise<CryptoKey> | undefined)[] = []
  /** Protected headers seen on tokens that decrypted, by their encoded form (one per key). */
  readonly knownHeaders = new Map<string, KnownHeader>()
  /**
   * Tokens that decrypted, by salt and then by the whole token: their header and
   * plaintext (bounded; see `jwt/jwe.ts`). A browser sends the same session
   * cookie with every request until it is re-issued, and its decryption always
   * gives the same bytes; the claims are parsed and checked on every use.
   */
  readonly decrypted = new Map<string, Map<string, DecryptedToken>>()

  /**
   * `ring` when it holds exactly `secret` (the same list), otherwise a new ring
   * for `secret`: custom `encode`/`decode` callers pass any secret they like.
   */
  static for(secret: string | readonly string[], ring?: KeyRing): KeyRing {
    if (
      ring &&
      (secret === ring.secrets || (ring.secrets.length === 1 && ring.secrets[0] === secret))
    ) {
      return ring
    }
    return new KeyRing(typeof secret === "string" ? [secret] : secret)
  }

  constructor(readonly secrets: readonly string[]) {
    if (secrets.length === 0 || secrets.some((s) => typeof s !== "string" || s.length === 0)) {
      throw new TypeError("A non-empty secret is required to encode or decode tokens")
    }
  }

  /** The encryption key for `salt` from secret `index` (0: the current one). */
  key(salt: string, index = 0): Promise<DerivedKey> {
    const id = `${index}\0${salt}`
    let entry = this.#pending.get(id)
    if (!entry) {
      entry = deriveKey(this.secrets[index]!, salt)
      this.#pending.set(id, entry)
      entry.then(
        (key) => {
          const keys = this.#ready.get(salt) ?? []
          keys[index] = key
          this.#ready.set(salt, keys)
        },
        // A failed derivation must not poison the ring.
        () => this.#pending.delete(id),
      )
    }
    return entry
  }

  /** The key a token's `kid` names; a token without one (another encoder's) gets the current key. */
  async keyFor(kid: unknown, salt: string): Promise<DerivedKey> {
    if (kid === undefined) return this.key(salt)
    for (let i = 0; i < this.secrets.length; i++) {
      const derived = await this.key(salt, i)
      if (derived.kid === kid) return derived
    }
    // Auth.js's error, word for word: code around `decode` may look for it.
    throw new Error("no matching decryption secret")
  }

  /** {@link keyFor} without waiting, when every key it may need is derived already. */
  readyKeyFor(kid: unknown, salt: string): DerivedKey | undefined {
    const keys = this.#ready.get(salt)
    if (!keys) return undefined
    const count = kid === undefined ? 1 : this.secrets.length
    for (let i = 0; i < count; i++) {
      const key = keys[i]
      if (!key) return undefined
      if (kid === undefined || key.kid === kid) return key
    }
    return undefined
  }

  /** HMAC-SHA-256 of `value` with secret `index` (0: the current one), hex. */
  async hmac(value: string, index = 0): Promise<string> {
    // node:crypto answers synchronously and needs no imported key.
    const node = nodePrimitives()
    if (node) return node.hmacSha256Hex(this.secrets[index]!, value)
    const key = (this.#hmacKeys[index] ??= importHmacKey(this.secrets[index]!))
    return hmacHex(key, value)
  }
}
