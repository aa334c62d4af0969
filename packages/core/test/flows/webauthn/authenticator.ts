/**
 * A software WebAuthn authenticator for tests: real ES256 keys (node:crypto),
 * real CBOR attestation objects ("none" format) and real signed assertions, so
 * the server verifies them exactly as it would a device's. Every field an
 * attacker could vary (origin, rp id, challenge, counter, flags, key) can be
 * overridden per call.
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

/** A P-256 public key as a COSE_Key (ES256), as authenticators report it and servers store it. */
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

export interface StoredCredential {
  id: string
  privateKey: KeyObject
  publicKey: KeyObject
  rpId: string
  userHandle: string
  counter: number
}

export interface CeremonyOverrides {
  origin?: string
  /** The rp id whose hash goes into the authenticator data. Default: the options' rp id. */
  rpId?: string
  challenge?: string
  type?: string
  /** Authenticator data flags. Default: user present and verified. */
  flags?: number
  /** The counter to report (authentication). Default: the credential's next value. */
  counter?: number
  /** Sign with this key instead of the credential's (authentication). */
  signingKey?: KeyObject
  /** Answer with this credential (authentication). Default: the first one for the rp id. */
  credentialId?: string
}

export class SoftAuthenticator {
  readonly credentials = new Map<string, StoredCredential>()

  /** `counterStep: 0` models authenticators (like most synced passkeys) that always report 0. */
  constructor(readonly options: { counterStep?: number } = {}) {}

  /** Answers `startRegistration`'s options the way a browser would serialise the result. */
  register(optionsJSON: any, overrides: CeremonyOverrides & { origin: string }) {
    // Reusing a credential models an authenticator answering with a credential it already has.
    const reused = overrides.credentialId ? this.credentials.get(overrides.credentialId) : undefined
    const { privateKey, publicKey } = reused ?? generateKeyPairSync("ec", { namedCurve: "P-256" })
    const credentialId = reused ? Buffer.from(reused.id, "base64url") : randomBytes(16)
    const id = b64url(credentialId)
    const rpId = overrides.rpId ?? optionsJSON.rp.id
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
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: overrides.type ?? "webauthn.create",
        challenge: overrides.challenge ?? optionsJSON.challenge,
        origin: overrides.origin,
        crossOrigin: false,
      }),
    )
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
  authenticate(optionsJSON: any, overrides: CeremonyOverrides & { origin: string }) {
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
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: overrides.type ?? "webauthn.get",
        challenge: overrides.challenge ?? optionsJSON.challenge,
        origin: overrides.origin,
        crossOrigin: false,
      }),
    )
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

export const flags = { UP: FLAG_UP, UV: FLAG_UV, AT: FLAG_AT }
