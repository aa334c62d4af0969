/**
 * The synchronous decrypt path of `decode` (jwt/fast-decrypt.ts) accepts and refuses
 * exactly what jose does.
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import { CompactEncrypt, EncryptJWT, base64url, decodeProtectedHeader, jwtDecrypt } from "jose"
import { decode, deriveEncryptionKey, encode } from "@tessera/core/jwt"
import { OTHER_SECRET, SECRET } from "../harness/index.js"
import { claims, loadWithoutNodeBuiltins, now, salt } from "./fixtures.js"

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

/**
 * Tokens jose and the fast path must treat alike. Each is [label, make()];
 * `make` returns the token and the secret list to decode it with.
 */
async function corpus(): Promise<[string, string][]> {
  const key = await deriveEncryptionKey(SECRET, salt)
  const good = await encode({ token: claims, secret: SECRET, salt })
  const [h, , iv, ct, tag] = good.split(".") as [string, string, string, string, string]
  const flip = (s: string, i = 0) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1)
  const jwt = (payload: Record<string, unknown>) =>
    new EncryptJWT(payload).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).encrypt(key)
  const compact = (
    plaintext: string,
    header: Record<string, unknown> = { alg: "dir", enc: "A256GCM" },
    crit?: Record<string, boolean>,
  ) =>
    new CompactEncrypt(new TextEncoder().encode(plaintext))
      .setProtectedHeader(header as any)
      .encrypt(key, crit ? { crit } : undefined)
  const headerOf = (obj: Record<string, unknown>) => base64url.encode(JSON.stringify(obj))
  return [
    ["valid", good],
    ["valid, no kid", await jwt({ sub: "x", iat: now() })],
    ["expired long ago", await jwt({ sub: "x", exp: now() - 3600 })],
    ["expired within clock tolerance", await jwt({ sub: "x", exp: now() - 5 })],
    ["exp exactly at tolerance", await jwt({ sub: "x", exp: now() - 15 })],
    ["nbf in the future", await jwt({ sub: "x", nbf: now() + 3600 })],
    ["nbf within tolerance", await jwt({ sub: "x", nbf: now() + 5 })],
    ["iat not a number", await jwt({ sub: "x", iat: "yesterday" as unknown as number })],
    ["exp not a number", await jwt({ sub: "x", exp: "soon" as unknown as number })],
    ["array payload", await compact("[1,2]")],
    ["string payload", await compact('"hello"')],
    ["not JSON", await compact("not json")],
    [
      "extra header parameter",
      await compact('{"sub":"x"}', { alg: "dir", enc: "A256GCM", typ: "JWT" }),
    ],
    [
      "crit header",
      await compact(
        '{"sub":"x"}',
        { alg: "dir", enc: "A256GCM", crit: ["urn:x"], "urn:x": 1 },
        { "urn:x": true },
      ),
    ],
    [
      "header tampered (kid removed)",
      `${headerOf({ alg: "dir", enc: "A256GCM" })}..${iv}.${ct}.${tag}`,
    ],
    ["header alg none", `${headerOf({ alg: "none", enc: "A256GCM" })}..${iv}.${ct}.${tag}`],
    [
      "header enc A128GCM",
      `${headerOf({ alg: "dir", enc: "A128GCM", kid: decodeProtectedHeader(good).kid })}..${iv}.${ct}.${tag}`,
    ],
    ["header zip", `${headerOf({ alg: "dir", enc: "A256GCM", zip: "DEF" })}..${iv}.${ct}.${tag}`],
    ["iv tampered", `${h}..${flip(iv)}.${ct}.${tag}`],
    ["ciphertext tampered", `${h}..${iv}.${flip(ct, 10)}.${tag}`],
    ["tag tampered", `${h}..${iv}.${ct}.${flip(tag)}`],
    ["tag truncated", `${h}..${iv}.${ct}.${tag.slice(0, 10)}`],
    ["iv too short", `${h}..${iv.slice(0, 8)}.${ct}.${tag}`],
    ["encrypted key present", `${h}.AAAA.${iv}.${ct}.${tag}`],
    ["four parts", `${h}..${iv}.${ct}`],
    ["six parts", `${good}.x`],
    [
      "padding completing the ciphertext",
      `${h}..${iv}.${ct}${"=".repeat((4 - (ct.length % 4)) % 4)}.${tag}`,
    ],
    ["padding where none fits", `${h}..${iv}.${ct}${ct.length % 4 === 0 ? "=" : "==="}.${tag}`],
    ["padding in the tag", `${h}..${iv}.${ct}.${tag}==`],
    ["plus sign in ciphertext", `${h}..${iv}.+${ct.slice(1)}.${tag}`],
    [
      "extra character in ciphertext (length 4n+1)",
      `${h}..${iv}.${ct}${ct.length % 4 === 0 ? "A" : ct.length % 4 === 2 ? "AAA" : "AA"}.${tag}`,
    ],
    ["garbage", "not-a-token"],
    ["header not base64", `@@..${iv}.${ct}.${tag}`],
  ]
}

/** A refusal is told by jose's class and code: `decode` throws jose's errors, as Auth.js's does. */
type Outcome = { ok: true; sub: unknown } | { ok: false; error: string; code: unknown }
const refusal = (error: unknown): Outcome => ({
  ok: false,
  error: (error as Error).constructor.name,
  code: (error as { code?: unknown }).code,
})
async function outcome(
  decoder: typeof decode,
  token: string,
  secret: string | string[] = SECRET,
): Promise<Outcome> {
  try {
    const payload = await decoder({ token, secret, salt })
    return { ok: true, sub: payload?.sub }
  } catch (error) {
    return refusal(error)
  }
}

/** The jwt module loaded where `process.getBuiltinModule` is missing: Web Crypto and jose only. */
const loadWebCryptoOnly = () => loadWithoutNodeBuiltins(() => import("@tessera/core/jwt"))

describe("the synchronous decrypt path matches jose", () => {
  test("every token in the corpus gets the same answer from both paths, and jose's own", async () => {
    const webcrypto = await loadWebCryptoOnly()
    const key = await deriveEncryptionKey(SECRET, salt)
    const rows = []
    for (const [label, token] of await corpus()) {
      const fast = await outcome(decode, token)
      const slow = await outcome(webcrypto.decode, token)
      let reference: Outcome
      try {
        const { payload } = await jwtDecrypt(token, key, {
          clockTolerance: 15,
          keyManagementAlgorithms: ["dir"],
          contentEncryptionAlgorithms: ["A256GCM"],
        })
        reference = { ok: true, sub: payload.sub }
      } catch (error) {
        reference = refusal(error)
      }
      rows.push({ label, fast, slow, reference })
    }
    for (const row of rows) {
      expect({ label: row.label, fast: row.fast }).toEqual({ label: row.label, fast: row.slow })
      expect({ label: row.label, ok: row.fast.ok }).toEqual({
        label: row.label,
        ok: row.reference.ok,
      })
    }
    // The same class and code as jose's, but where Tessera refuses a token before jose would
    // (it never decompresses a "zip" body; jose tries, and fails to decrypt).
    expect(
      rows
        .filter((row) => JSON.stringify(row.fast) !== JSON.stringify(row.reference))
        .map((row) => ({ label: row.label, tessera: row.fast, jose: row.reference })),
    ).toEqual([
      {
        label: "header zip",
        tessera: { ok: false, error: "JOSENotSupported", code: "ERR_JOSE_NOT_SUPPORTED" },
        jose: { ok: false, error: "JWEDecryptionFailed", code: "ERR_JWE_DECRYPTION_FAILED" },
      },
    ])
    // The corpus exercises both answers.
    expect(rows.filter((r) => r.fast.ok).map((r) => r.label)).toEqual([
      "valid",
      "valid, no kid",
      "expired within clock tolerance",
      "nbf within tolerance",
      "extra header parameter",
      "padding completing the ciphertext",
      "padding in the tag",
    ])
  })

  test("the Web Crypto path round-trips with the fast path", async () => {
    const webcrypto = await loadWebCryptoOnly()
    const token = await webcrypto.encode({ token: claims, secret: SECRET, salt })
    expect((await decode({ token, secret: SECRET, salt }))!.email).toBe("ada@example.com")
    const back = await encode({ token: claims, secret: [OTHER_SECRET, SECRET], salt })
    expect(
      (await webcrypto.decode({ token: back, secret: [SECRET, OTHER_SECRET], salt }))!.email,
    ).toBe("ada@example.com")
    await expect(webcrypto.decode({ token: back, secret: SECRET, salt })).rejects.toThrow()
  })

  test("the fast path does not call crypto.subtle once the key is cached", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt })
    await decode({ token, secret: SECRET, salt })
    const decrypt = vi.spyOn(crypto.subtle, "decrypt")
    for (let i = 0; i < 5; i++) await decode({ token, secret: SECRET, salt })
    expect(decrypt).not.toHaveBeenCalled()
  })
})
