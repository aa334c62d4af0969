/**
 * A software WebAuthn authenticator for tests: real ES256 keys (node:crypto), real CBOR
 * attestation objects ("none" format) and real signed assertions, so the server verifies them
 * exactly as it would a device's. Every field an attacker could vary (origin, rp id, challenge,
 * counter, flags, key) can be overridden per call. It answers the options of
 * `GET /auth/webauthn-options/<provider>` with what `startRegistration` / `startAuthentication`
 * of `@simplewebauthn/browser` would send to `POST /auth/callback/<provider>`.
 *
 * @example
 * ```ts
 * import { SoftAuthenticator } from "@tessera/testing/webauthn-authenticator"
 * const authenticator = new SoftAuthenticator()
 * const { options } = await (await fetch(`${origin}/auth/webauthn-options/passkey?email=ada@example.com`)).json()
 * const data = authenticator.register(options, { origin })  // post as `data`, with `action=register`
 * ```
 * @module
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto"

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url")
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest()

/** Minimal CBOR (RFC 8949) encoder: what attestation objects and COSE keys need. */
function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length])
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length])
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff])
  const out = Buffer.alloc(5)
  out[0] = (major << 5) | 26
  out.writeUInt32BE(length, 1)
  return out
}

/**
 * Encodes a value in CBOR, the subset attestation objects and COSE keys use: unsigned and
 * negative integers, text and byte strings, arrays, maps (a `Map` keeps integer keys) and plain
 * objects (as maps with text keys).
 *
 * @param value The value to encode.
 * @see [RFC 8949: Concise Binary Object Representation (CBOR)](https://www.rfc-editor.org/rfc/rfc8949.html)
 */
export function cbor(value: unknown): Buffer {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value)
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8")
    return Buffer.concat([cborHead(3, bytes.length), bytes])
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value])
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(cbor)])
  if (value instanceof Map) {
    const parts: Buffer[] = [cborHead(5, value.size)]
    for (const [k, v] of value) parts.push(cbor(k), cbor(v))
    return Buffer.concat(parts)
  }
  if (value && typeof value === "object") return cbor(new Map(Object.entries(value)))
  throw new TypeError(`cbor: unsupported ${typeof value}`)
}

/**
 * A P-256 public key as a COSE_Key (ES256), as authenticators report it and servers store it.
 *
 * @param publicKey An EC P-256 public key.
 * @see [RFC 9053 §7.1.1, Double Coordinate Curves](https://www.rfc-editor.org/rfc/rfc9053.html#section-7.1.1)
 * @see [Web Authentication Level 3 §6.5.1.1, Examples of credentialPublicKey Values Encoded in COSE_Key Format](https://www.w3.org/TR/webauthn-3/#sctn-encoded-credPubKey-examples)
 */
export function coseKeyOf(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" }) as { x: string; y: string }
  return cbor(
    new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x, "base64url")],
      [-3, Buffer.from(jwk.y, "base64url")],
    ]),
  )
}

const FLAG_UP = 0x01
const FLAG_UV = 0x04
const FLAG_AT = 0x40

function counterBytes(counter: number): Buffer {
  const out = Buffer.alloc(4)
  out.writeUInt32BE(counter >>> 0)
  return out
}

/** The client data a browser signs over: the ceremony's type, the challenge, the origin. */
function clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
  return Buffer.from(
    JSON.stringify({
      type: overrides.type ?? type,
      challenge: overrides.challenge ?? challenge,
      origin: overrides.origin,
      crossOrigin: false,
    }),
  )
}

/**
 * A credential the authenticator holds: its id (base64url), its key pair, the rp id it is bound
 * to, the user handle it was made for, and its signature counter.
 *
 * @see [Web Authentication Level 3 §6.2, Authenticator Taxonomy / Credential Storage](https://www.w3.org/TR/webauthn-3/#public-key-credential-source)
 */
export interface StoredCredential {
  id: string
  privateKey: KeyObject
  publicKey: KeyObject
  rpId: string
  userHandle: string
  counter: number
}

/**
 * What a ceremony may change from what an honest authenticator would send: each field an
 * attacker (or a broken client) could vary.
 *
 * @see [Web Authentication Level 3 §5.8.1, Client Data Used in WebAuthn Signatures](https://www.w3.org/TR/webauthn-3/#dictionary-client-data)
 * @see [Web Authentication Level 3 §6.1, Authenticator Data](https://www.w3.org/TR/webauthn-3/#sctn-authenticator-data)
 */
export interface CeremonyOverrides {
  /** The origin in the client data. */
  origin?: string
  /** The rp id whose hash goes into the authenticator data. Default: the options' rp id. */
  rpId?: string
  /** The challenge in the client data. Default: the options' challenge. */
  challenge?: string
  /** The client data's `type`. Default `webauthn.create` (registration) or `webauthn.get`. */
  type?: string
  /** Authenticator data flags. Default: user present and verified. */
  flags?: number
  /** The counter to report (authentication). Default: the credential's next value. */
  counter?: number
  /** Sign with this key instead of the credential's (authentication). */
  signingKey?: KeyObject
  /**
   * Answer with this credential: in an authentication, instead of the first one for the rp id;
   * in a registration, the authenticator answers with this credential it already has.
   */
  credentialId?: string
}

/**
 * The registration options the authenticator reads (`PublicKeyCredentialCreationOptionsJSON`, as
 * `webauthn-options` answers them with `action: "register"`).
 *
 * @see [Web Authentication Level 3 §5.4, Options for Credential Creation](https://www.w3.org/TR/webauthn-3/#dictionary-makecredentialoptions)
 */
export interface RegistrationOptionsJSON {
  rp: { id?: string }
  user: { id: string }
  challenge: string
  [key: string]: unknown
}

/**
 * The authentication options the authenticator reads (`PublicKeyCredentialRequestOptionsJSON`,
 * as `webauthn-options` answers them with `action: "authenticate"`).
 *
 * @see [Web Authentication Level 3 §5.5, Options for Assertion Generation](https://www.w3.org/TR/webauthn-3/#dictionary-assertion-options)
 */
export interface AuthenticationOptionsJSON {
  rpId?: string
  challenge: string
  [key: string]: unknown
}

/**
 * A software authenticator: it makes ES256 credentials, keeps them in `credentials`, and
 * answers registration and authentication options as a browser serialises the result of
 * `navigator.credentials.create()` / `.get()` (the JSON `@simplewebauthn/browser` sends).
 *
 * @param options `counterStep`: how much the signature counter goes up per assertion (default
 *   1; `0` models authenticators, like most synced passkeys, that always report 0).
 * @see [Web Authentication Level 3 §6.3, Authenticator Operations](https://www.w3.org/TR/webauthn-3/#sctn-authenticator-ops)
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export class SoftAuthenticator {
  readonly credentials = new Map<string, StoredCredential>()

  constructor(readonly options: { counterStep?: number } = {}) {}

  /** Answers `startRegistration`'s options the way a browser would serialise the result. */
  register(
    optionsJSON: RegistrationOptionsJSON,
    overrides: CeremonyOverrides & { origin: string },
  ) {
    // Reusing a credential models an authenticator answering with a credential it already has.
    const reused = overrides.credentialId ? this.credentials.get(overrides.credentialId) : undefined
    const { privateKey, publicKey } = reused ?? generateKeyPairSync("ec", { namedCurve: "P-256" })
    const credentialId = reused ? Buffer.from(reused.id, "base64url") : randomBytes(16)
    const id = b64url(credentialId)
    const rpId = overrides.rpId ?? optionsJSON.rp.id
    if (rpId === undefined) throw new Error("SoftAuthenticator: the options name no rp id")
    const coseKey = coseKeyOf(publicKey)
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(credentialId.length)
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([overrides.flags ?? FLAG_UP | FLAG_UV | FLAG_AT]),
      counterBytes(0),
      Buffer.alloc(16), // aaguid: none
      idLength,
      credentialId,
      coseKey,
    ])
    const clientDataJSON = clientData("webauthn.create", optionsJSON.challenge, overrides)
    const attestationObject = cbor(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    )
    this.credentials.set(id, {
      id,
      privateKey,
      publicKey,
      rpId,
      userHandle: optionsJSON.user.id,
      counter: 0,
    })
    return {
      id,
      rawId: id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: { credProps: { rk: true } },
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
    }
  }

  /** Answers `startAuthentication`'s options with a signed assertion. */
  authenticate(
    optionsJSON: AuthenticationOptionsJSON,
    overrides: CeremonyOverrides & { origin: string },
  ) {
    const rpIdOfOptions = optionsJSON.rpId
    const credential = overrides.credentialId
      ? this.credentials.get(overrides.credentialId)
      : [...this.credentials.values()].find((c) => c.rpId === rpIdOfOptions)
    if (!credential) throw new Error("SoftAuthenticator: no credential for this rp id")
    const step = this.options.counterStep ?? 1
    const counter = overrides.counter ?? credential.counter + step
    credential.counter = counter
    const authData = Buffer.concat([
      sha256(overrides.rpId ?? credential.rpId),
      Buffer.from([overrides.flags ?? FLAG_UP | FLAG_UV]),
      counterBytes(counter),
    ])
    const clientDataJSON = clientData("webauthn.get", optionsJSON.challenge, overrides)
    const signature = sign(
      "sha256",
      Buffer.concat([authData, sha256(clientDataJSON)]),
      overrides.signingKey ?? credential.privateKey,
    )
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    }
  }
}

/**
 * Authenticator data flags for `CeremonyOverrides.flags`: user present (`UP`), user verified
 * (`UV`), attested credential data included (`AT`).
 *
 * @see [Web Authentication Level 3 §6.1, Authenticator Data (flags)](https://www.w3.org/TR/webauthn-3/#authdata-flags)
 */
export const flags = { UP: FLAG_UP, UV: FLAG_UV, AT: FLAG_AT }
