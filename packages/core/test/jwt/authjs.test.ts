/**
 * Auth.js v5 session tokens are read by Tessera's own JWE code (jwt/authjs.ts,
 * jwt/cbc-hmac.ts), which must accept and refuse exactly what the jose-based
 * decoder it replaced did (`jwtDecrypt` with Auth.js's key lookup, kept below as
 * the reference), with the same error classes, on node:crypto and on Web Crypto.
 */
import { createCipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto"
import { afterEach, describe, expect, test, vi } from "vitest"
import {
  CompactEncrypt,
  EncryptJWT,
  base64url,
  calculateJwkThumbprint,
  decodeProtectedHeader,
  generateKeyPair,
  jwtDecrypt,
} from "jose"
import { decodeAuthjsToken } from "../../src/jwt/authjs.js"
import { nodePrimitives } from "../../src/lib/crypto.js"
import { OTHER_SECRET, SECRET } from "../harness/index.js"
import { loadWithoutNodeBuiltins, now } from "./fixtures.js"

const salt = "authjs.session-token"
const CBC = "A256CBC-HS512"
const GCM = "A256GCM"
const encoder = new TextEncoder()

afterEach(() => {
  vi.restoreAllMocks()
})

/** Auth.js's key for `secret`, derived here with node:crypto (not with the code under test). */
function authjsKey(secret: string, length: 64 | 32): Uint8Array {
  const info = `Auth.js Generated Encryption Key (${salt})`
  return new Uint8Array(hkdfSync("sha256", secret, salt, info, length))
}

/** Auth.js's `kid`: the key's JWK thumbprint, by jose. */
const kidOf = (key: Uint8Array) =>
  calculateJwkThumbprint(
    { kty: "oct", k: base64url.encode(key) },
    key.byteLength === 64 ? "sha512" : "sha256",
  )

/** The decoder jwt/authjs.ts had before: jose's `jwtDecrypt` and Auth.js's key lookup. */
async function joseDecode(token: string, secrets: readonly string[]) {
  const lengths: Record<string, number> = { [CBC]: 64, [GCM]: 32 }
  const { payload } = await jwtDecrypt(
    token,
    async ({ kid, enc }) => {
      const length = lengths[enc]
      if (!length) throw new TypeError("Unsupported token encryption")
      for (const secret of secrets) {
        const key = authjsKey(secret, length as 64 | 32)
        if (kid === undefined) return key
        if (kid === (await kidOf(key))) return key
      }
      throw new TypeError("No secret made this token")
    },
    {
      clockTolerance: 15,
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: [CBC, GCM],
    },
  )
  return payload
}

/**
 * An `A256CBC-HS512` token made by hand with node:crypto, with a valid tag over
 * whatever `ciphertextOf` returns: to reach the padding check, which a tag
 * made by anyone without the key never gets to.
 */
function handMadeCbc(
  key: Uint8Array,
  ciphertextOf: (encrypt: (data: Uint8Array) => Uint8Array) => Uint8Array,
): string {
  const header = base64url.encode(JSON.stringify({ alg: "dir", enc: CBC }))
  const iv = randomBytes(16)
  const encrypt = (data: Uint8Array) => {
    const cipher = createCipheriv("aes-256-cbc", key.subarray(32), iv).setAutoPadding(false)
    return new Uint8Array(Buffer.concat([cipher.update(data), cipher.final()]))
  }
  const ciphertext = ciphertextOf(encrypt)
  const aad = Buffer.from(header)
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aad.length * 8))
  const tag = createHmac("sha512", key.subarray(0, 32))
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(al)
    .digest()
    .subarray(0, 32)
  return `${header}..${base64url.encode(iv)}.${base64url.encode(ciphertext)}.${base64url.encode(tag)}`
}

/** `text` padded to whole AES blocks with `pad(count)` as the last `count` bytes. */
function padded(text: string, pad: (count: number) => number[]): Uint8Array {
  const bytes = encoder.encode(text)
  const count = 16 - (bytes.length % 16)
  return new Uint8Array([...bytes, ...pad(count)])
}

type Row = [label: string, token: string, secrets?: readonly string[]]

/** Tokens both decoders must treat alike; `secrets` defaults to `[SECRET]`. */
async function corpus(): Promise<Row[]> {
  const cbcKey = authjsKey(SECRET, 64)
  const gcmKey = authjsKey(SECRET, 32)
  const otherCbcKey = authjsKey(OTHER_SECRET, 64)
  const cbcKid = await kidOf(cbcKey)
  const gcmKid = await kidOf(gcmKey)
  const jwt = (
    payload: Record<string, unknown>,
    header: Record<string, unknown> = { alg: "dir", enc: CBC, kid: cbcKid },
    key: Uint8Array = cbcKey,
  ) =>
    new EncryptJWT(payload).setProtectedHeader(header as { alg: string; enc: string }).encrypt(key)
  const compact = (
    plaintext: string | Uint8Array,
    header: Record<string, unknown> = { alg: "dir", enc: CBC },
    crit?: Record<string, boolean>,
  ) =>
    new CompactEncrypt(typeof plaintext === "string" ? encoder.encode(plaintext) : plaintext)
      .setProtectedHeader(header as { alg: string; enc: string })
      .encrypt(cbcKey, crit ? { crit } : undefined)
  const headerOf = (obj: Record<string, unknown>) => base64url.encode(JSON.stringify(obj))
  const flip = (s: string, i = 0) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1)

  const good = await jwt({ sub: "ada", iat: now(), exp: now() + 3600 })
  const [h, , iv, ct, tag] = good.split(".") as [string, string, string, string, string]
  const gcm = await jwt(
    { sub: "ada", exp: now() + 3600 },
    { alg: "dir", enc: GCM, kid: gcmKid },
    gcmKey,
  )
  const [gh, , giv, gct, gtag] = gcm.split(".") as [string, string, string, string, string]
  const rsa = await generateKeyPair("RSA-OAEP", { modulusLength: 2048 })

  return [
    // A256CBC-HS512, Auth.js's default
    ["cbc: valid, with kid", good],
    ["cbc: valid, no kid", await jwt({ sub: "ada" }, { alg: "dir", enc: CBC })],
    [
      "cbc: kid of the second secret",
      await jwt(
        { sub: "ada" },
        { alg: "dir", enc: CBC, kid: await kidOf(otherCbcKey) },
        otherCbcKey,
      ),
      [SECRET, OTHER_SECRET],
    ],
    [
      "cbc: no kid, made with the second secret (the first one's key is used)",
      await jwt({ sub: "ada" }, { alg: "dir", enc: CBC }, otherCbcKey),
      [SECRET, OTHER_SECRET],
    ],
    [
      "cbc: kid of a secret not configured",
      await jwt(
        { sub: "ada" },
        { alg: "dir", enc: CBC, kid: await kidOf(otherCbcKey) },
        otherCbcKey,
      ),
    ],
    ["cbc: wrong kid", await jwt({ sub: "ada" }, { alg: "dir", enc: CBC, kid: "not-the-kid" })],
    ["cbc: kid not a string", await jwt({ sub: "ada" }, { alg: "dir", enc: CBC, kid: 7 })],
    ["cbc: tag tampered", `${h}..${iv}.${ct}.${flip(tag)}`],
    ["cbc: tag's last byte tampered", `${h}..${iv}.${ct}.${flip(tag, tag.length - 2)}`],
    [
      "cbc: tag truncated to 16 bytes",
      `${h}..${iv}.${ct}.${base64url.encode(base64url.decode(tag).subarray(0, 16))}`,
    ],
    ["cbc: tag of 64 bytes", `${h}..${iv}.${ct}.${tag}${tag}`],
    ["cbc: ciphertext tampered", `${h}..${iv}.${flip(ct, 10)}.${tag}`],
    ["cbc: ciphertext's last block tampered", `${h}..${iv}.${flip(ct, ct.length - 3)}.${tag}`],
    ["cbc: iv tampered", `${h}..${flip(iv)}.${ct}.${tag}`],
    ["cbc: iv of 12 bytes", `${h}..${iv.slice(0, 16)}.${ct}.${tag}`],
    ["cbc: iv missing", `${h}...${ct}.${tag}`],
    ["cbc: tag missing", `${h}..${iv}.${ct}.`],
    [
      "cbc: header tampered (kid removed)",
      `${headerOf({ alg: "dir", enc: CBC })}..${iv}.${ct}.${tag}`,
    ],
    [
      "cbc: header tampered (enc A256GCM)",
      `${headerOf({ alg: "dir", enc: GCM, kid: cbcKid })}..${iv}.${ct}.${tag}`,
    ],
    [
      "cbc: header enc A128CBC-HS256",
      `${headerOf({ alg: "dir", enc: "A128CBC-HS256", kid: cbcKid })}..${iv}.${ct}.${tag}`,
    ],
    [
      "A128CBC-HS256, made by jose with its 32-byte key",
      await jwt({ sub: "ada" }, { alg: "dir", enc: "A128CBC-HS256" }, gcmKey),
    ],
    [
      "header alg RSA-OAEP",
      `${headerOf({ alg: "RSA-OAEP", enc: CBC, kid: cbcKid })}..${iv}.${ct}.${tag}`,
    ],
    [
      "RSA-OAEP, made by jose",
      await new EncryptJWT({ sub: "ada" })
        .setProtectedHeader({ alg: "RSA-OAEP", enc: CBC })
        .encrypt(rsa.publicKey),
    ],
    ["header alg none", `${headerOf({ alg: "none", enc: CBC })}..${iv}.${ct}.${tag}`],
    ["header without enc", `${headerOf({ alg: "dir", kid: cbcKid })}..${iv}.${ct}.${tag}`],
    ["header not JSON", `${base64url.encode("{alg")}..${iv}.${ct}.${tag}`],
    ["header not base64url", `@@..${iv}.${ct}.${tag}`],
    ["encrypted key present", `${h}.AAAA.${iv}.${ct}.${tag}`],
    ["four parts", `${h}..${iv}.${ct}`],
    ["six parts", `${good}.x`],
    ["garbage", "not-a-token"],
    ["empty", ""],
    ["cbc: expired long ago", await jwt({ sub: "ada", exp: now() - 3600 })],
    ["cbc: expired within clock tolerance", await jwt({ sub: "ada", exp: now() - 5 })],
    ["cbc: exp exactly at tolerance", await jwt({ sub: "ada", exp: now() - 15 })],
    ["cbc: nbf in the future", await jwt({ sub: "ada", nbf: now() + 3600 })],
    ["cbc: nbf within tolerance", await jwt({ sub: "ada", nbf: now() + 5 })],
    ["cbc: iat not a number", await jwt({ sub: "ada", iat: "yesterday" })],
    [
      "replicated iss that differs",
      await jwt({ sub: "ada", iss: "a" }, { alg: "dir", enc: CBC, kid: cbcKid, iss: "b" }),
    ],
    [
      "replicated sub that matches",
      await jwt({ sub: "ada" }, { alg: "dir", enc: CBC, kid: cbcKid, sub: "ada" }),
    ],
    [
      "extra header parameter",
      await compact('{"sub":"ada"}', { alg: "dir", enc: CBC, typ: "JWT" }),
    ],
    [
      "crit header",
      await compact(
        '{"sub":"ada"}',
        { alg: "dir", enc: CBC, crit: ["urn:x"], "urn:x": 1 },
        { "urn:x": true },
      ),
    ],
    ["array payload", await compact("[1,2]")],
    ["not JSON", await compact("not json")],
    ["invalid UTF-8", await compact(new Uint8Array([0x7b, 0xff, 0x7d]))],
    ["empty plaintext", await compact("")],
    // Valid tags over bad plaintext blocks: only the padding check refuses these.
    [
      "hand-made, valid padding",
      handMadeCbc(cbcKey, (e) => e(padded('{"sub":"ada"}', (n) => Array(n).fill(n)))),
    ],
    [
      "hand-made, padding byte 0",
      handMadeCbc(cbcKey, (e) => e(padded('{"sub":"ada"}', (n) => [...Array(n - 1).fill(n), 0]))),
    ],
    [
      "hand-made, padding byte 17",
      handMadeCbc(cbcKey, (e) => e(padded('{"sub":"ada"}', (n) => [...Array(n - 1).fill(n), 17]))),
    ],
    [
      "hand-made, padding bytes that disagree",
      handMadeCbc(cbcKey, (e) =>
        e(padded('{"sub":"ada"}', (n) => [...Array(n - 1).fill(n === 1 ? 2 : 1), n])),
      ),
    ],
    [
      "hand-made, not a whole block",
      handMadeCbc(
        cbcKey,
        (e) => new Uint8Array([...e(padded('{"sub":"ada"}', (n) => Array(n).fill(n))), 1, 2, 3]),
      ),
    ],
    ["hand-made, empty ciphertext", handMadeCbc(cbcKey, () => new Uint8Array())],
    // A256GCM, Auth.js's other encryption
    ["gcm: valid, with kid", gcm],
    ["gcm: valid, no kid", await jwt({ sub: "ada" }, { alg: "dir", enc: GCM }, gcmKey)],
    [
      "gcm: kid computed with SHA-512",
      await jwt(
        { sub: "ada" },
        { alg: "dir", enc: GCM, kid: await kidOf(authjsKey(SECRET, 64)) },
        gcmKey,
      ),
    ],
    ["gcm: wrong kid", await jwt({ sub: "ada" }, { alg: "dir", enc: GCM, kid: "x" }, gcmKey)],
    ["gcm: tag tampered", `${gh}..${giv}.${gct}.${flip(gtag)}`],
    ["gcm: tag truncated", `${gh}..${giv}.${gct}.${gtag.slice(0, 10)}`],
    ["gcm: ciphertext tampered", `${gh}..${giv}.${flip(gct, 5)}.${gtag}`],
    ["gcm: iv tampered", `${gh}..${flip(giv)}.${gct}.${gtag}`],
    ["gcm: iv of 16 bytes", `${gh}..${iv}.${gct}.${gtag}`],
    [
      "gcm: header enc A256CBC-HS512",
      `${headerOf({ alg: "dir", enc: CBC, kid: gcmKid })}..${giv}.${gct}.${gtag}`,
    ],
    ["gcm: expired", await jwt({ sub: "ada", exp: now() - 60 }, { alg: "dir", enc: GCM }, gcmKey)],
    [
      "gcm: nbf in the future",
      await jwt({ sub: "ada", nbf: now() + 60 }, { alg: "dir", enc: GCM }, gcmKey),
    ],
  ]
}

type Outcome = { ok: true; sub: unknown } | { ok: false; error: string }

async function outcome(decode: () => Promise<Record<string, unknown>>): Promise<Outcome> {
  try {
    return { ok: true, sub: (await decode()).sub }
  } catch (error) {
    return { ok: false, error: (error as Error).name }
  }
}

/** jwt/authjs.ts loaded where `process.getBuiltinModule` is missing: Web Crypto only. */
const loadWebCryptoOnly = () => loadWithoutNodeBuiltins(() => import("../../src/jwt/authjs.js"))

describe("decoding Auth.js session tokens without jose's JWE", () => {
  test("every token of the corpus gets jose's answer (and error class), on node:crypto and on Web Crypto", async () => {
    const webcrypto = await loadWebCryptoOnly()
    const rows = []
    for (const [label, token, secrets = [SECRET]] of await corpus()) {
      rows.push({
        label,
        node: await outcome(() => decodeAuthjsToken(token, secrets, salt)),
        web: await outcome(() => webcrypto.decodeAuthjsToken(token, secrets, salt)),
        jose: await outcome(() => joseDecode(token, secrets)),
      })
    }
    for (const { label, node, web, jose } of rows) {
      expect({ label, outcome: node }).toEqual({ label, outcome: jose })
      expect({ label, outcome: web }).toEqual({ label, outcome: jose })
    }
    // The corpus exercises both answers, and these are the tokens accepted.
    expect(rows.filter((r) => r.node.ok).map((r) => r.label)).toEqual([
      "cbc: valid, with kid",
      "cbc: valid, no kid",
      "cbc: kid of the second secret",
      "cbc: expired within clock tolerance",
      "cbc: nbf within tolerance",
      "replicated sub that matches",
      "extra header parameter",
      "hand-made, valid padding",
      "gcm: valid, with kid",
      "gcm: valid, no kid",
    ])
  })

  test("stricter than jose on purpose: a compressed (zip) token is refused", async () => {
    // Auth.js never compresses; jose would inflate whatever the key holder sent.
    const key = authjsKey(SECRET, 64)
    const token = await new CompactEncrypt(encoder.encode('{"sub":"ada"}'))
      .setProtectedHeader({ alg: "dir", enc: CBC, zip: "DEF" })
      .encrypt(key)
    expect((await joseDecode(token, [SECRET])).sub).toBe("ada")
    await expect(decodeAuthjsToken(token, [SECRET], salt)).rejects.toMatchObject({
      name: "JOSENotSupported",
    })
    // `zip` added to a genuine token's header: both refuse it, jose only once the tag fails.
    const [, , iv, ct, tag] = (
      await new EncryptJWT({ sub: "ada" }).setProtectedHeader({ alg: "dir", enc: CBC }).encrypt(key)
    ).split(".")
    const zipped = `${base64url.encode(JSON.stringify({ alg: "dir", enc: CBC, zip: "DEF" }))}..${iv}.${ct}.${tag}`
    await expect(joseDecode(zipped, [SECRET])).rejects.toMatchObject({
      name: "JWEDecryptionFailed",
    })
    await expect(decodeAuthjsToken(zipped, [SECRET], salt)).rejects.toMatchObject({
      name: "JOSENotSupported",
    })
  })

  test("the tag is checked before anything is decrypted, on both paths", async () => {
    const key = authjsKey(SECRET, 64)
    const good = await new EncryptJWT({ sub: "ada" })
      .setProtectedHeader({ alg: "dir", enc: CBC })
      .encrypt(key)
    const [h, , iv, ct, tag] = good.split(".")
    const forged = `${h}..${iv}.${ct}.${tag!.startsWith("A") ? "B" : "A"}${tag!.slice(1)}`
    const aesCbc = vi.spyOn(nodePrimitives()!, "aesCbcDecrypt")
    await expect(decodeAuthjsToken(forged, [SECRET], salt)).rejects.toMatchObject({
      name: "JWEDecryptionFailed",
    })
    expect(aesCbc).not.toHaveBeenCalled()
    await decodeAuthjsToken(good, [SECRET], salt)
    expect(aesCbc).toHaveBeenCalledTimes(1)

    const webcrypto = await loadWebCryptoOnly()
    const decrypt = vi.spyOn(crypto.subtle, "decrypt")
    await expect(webcrypto.decodeAuthjsToken(forged, [SECRET], salt)).rejects.toMatchObject({
      name: "JWEDecryptionFailed",
    })
    expect(decrypt).not.toHaveBeenCalled()
    await webcrypto.decodeAuthjsToken(good, [SECRET], salt)
    expect(decrypt).toHaveBeenCalledTimes(1)
  })

  test("errors carry none of the decrypted claims", async () => {
    const key = authjsKey(SECRET, 64)
    const claims = { sub: "ada", email: "ada@example.com" }
    for (const extra of [
      { exp: now() - 3600 },
      { nbf: now() + 3600 },
      { iat: "yesterday" as unknown as number },
    ]) {
      const token = await new EncryptJWT({ ...claims, ...extra })
        .setProtectedHeader({ alg: "dir", enc: CBC })
        .encrypt(key)
      const error = await decodeAuthjsToken(token, [SECRET], salt).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Error)
      expect((error as { payload?: unknown }).payload).toEqual({})
      const seen = JSON.stringify(error) + String(error) + (error as Error).stack
      expect(seen).not.toContain("ada")
    }
  })

  test("the key id is jose's JWK thumbprint of the derived key", async () => {
    const key = authjsKey(SECRET, 64)
    const token = await new EncryptJWT({ sub: "ada" })
      .setProtectedHeader({ alg: "dir", enc: CBC, kid: await kidOf(key) })
      .encrypt(key)
    expect(decodeProtectedHeader(token).kid).toMatch(/^[\w-]{86}$/)
    expect((await decodeAuthjsToken(token, [OTHER_SECRET, SECRET], salt)).sub).toBe("ada")
  })
})
