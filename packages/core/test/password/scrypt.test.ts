/**
 * scrypt, the default: RFC 7914's test vectors through `verifyPassword`, the
 * stored format, round trips, and `needsRehash` against the policy.
 */
import { scryptSync } from "node:crypto"
import { describe, expect, test } from "vitest"
import { SCRYPT_DEFAULTS, hashPassword, verifyPassword } from "@tessera/core/password"

/** Test-only cost (1 MiB, milliseconds); the defaults are exercised once, below. */
const CHEAP = { ln: 10, r: 8, p: 1 } as const

const b64 = (bytes: Uint8Array | string) =>
  Buffer.from(typeof bytes === "string" ? Buffer.from(bytes, "hex") : bytes)
    .toString("base64")
    .replace(/=+$/, "")

describe("scrypt known answers (RFC 7914, section 12)", () => {
  test.each([
    {
      password: "password",
      salt: "NaCl",
      params: "ln=10,r=8,p=16",
      hex: "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640",
    },
    {
      password: "pleaseletmein",
      salt: "SodiumChloride",
      params: "ln=14,r=8,p=1",
      hex: "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887",
    },
  ])("$password / $salt ($params)", async ({ password, salt, params, hex }) => {
    const stored = `$scrypt$${params}$${b64(Buffer.from(salt))}$${b64(hex)}`
    // Cheaper than the defaults: valid, and due for a rehash.
    expect(await verifyPassword(stored, password)).toEqual({ valid: true, needsRehash: true })
    expect(await verifyPassword(stored, `${password}!`)).toEqual({
      valid: false,
      needsRehash: false,
    })
    // The last byte flipped: the comparison covers the whole key.
    const last = hex.slice(-2) === "00" ? "01" : "00"
    const tampered = `$scrypt$${params}$${b64(Buffer.from(salt))}$${b64(hex.slice(0, -2) + last)}`
    expect((await verifyPassword(tampered, password)).valid).toBe(false)
  })
})

describe("hashPassword with scrypt", () => {
  test("the defaults are OWASP's: N = 2^17, r = 8, p = 1, 16-byte salt, 32-byte hash", async () => {
    expect(SCRYPT_DEFAULTS).toEqual({ ln: 17, r: 8, p: 1 })
    const started = performance.now()
    const stored = await hashPassword("correct horse battery staple")
    const elapsed = performance.now() - started
    const match = /^\$scrypt\$ln=17,r=8,p=1\$([A-Za-z0-9+/]{22})\$([A-Za-z0-9+/]{43})$/.exec(stored)
    expect(match).not.toBeNull()
    // The stored hash is scrypt itself, recomputed here with node:crypto directly.
    const salt = Buffer.from(match![1]!, "base64")
    const key = scryptSync("correct horse battery staple", salt, 32, {
      N: 2 ** 17,
      r: 8,
      p: 1,
      maxmem: 256 * 2 ** 17 * 8,
    })
    expect(b64(key)).toBe(match![2])
    expect(await verifyPassword(stored, "correct horse battery staple")).toEqual({
      valid: true,
      needsRehash: false,
    })
    console.info(`[password] scrypt N=2^17 r=8 p=1: one hash took ${elapsed.toFixed(0)} ms`)
  })

  test("every hash has its own salt", async () => {
    const [a, b] = await Promise.all([
      hashPassword("same password", CHEAP),
      hashPassword("same password", CHEAP),
    ])
    expect(a).not.toBe(b)
    expect(a.split("$")[4]).not.toBe(b.split("$")[4])
    for (const stored of [a, b])
      expect((await verifyPassword(stored, "same password", CHEAP)).valid).toBe(true)
  })

  test("round trips, and a wrong password does not verify", async () => {
    const stored = await hashPassword("hunter2-but-longer", CHEAP)
    expect(stored.startsWith("$scrypt$ln=10,r=8,p=1$")).toBe(true)
    expect(await verifyPassword(stored, "hunter2-but-longer", CHEAP)).toEqual({
      valid: true,
      needsRehash: false,
    })
    expect(await verifyPassword(stored, "hunter2-but-longeR", CHEAP)).toEqual({
      valid: false,
      needsRehash: false,
    })
  })

  test("options out of bounds are refused before hashing", async () => {
    await expect(hashPassword("pw", { ln: 0 })).rejects.toThrow(TypeError)
    await expect(hashPassword("pw", { ln: 21, r: 8 })).rejects.toThrow(/1 GiB/)
    await expect(hashPassword("pw", { r: 1.5 })).rejects.toThrow(/r must be an integer/)
    await expect(hashPassword("pw", { algorithm: "md5" } as never)).rejects.toThrow(
      /unknown algorithm/,
    )
    await expect(hashPassword("pw", { m: 1 } as never)).rejects.toThrow(/m is not a parameter/)
  })
})

describe("needsRehash (scrypt)", () => {
  test("a hash below the policy's parameters needs one; at or above, it does not", async () => {
    const stored = await hashPassword("pw-1234", CHEAP)
    expect(await verifyPassword(stored, "pw-1234", { ln: 11 })).toEqual({
      valid: true,
      needsRehash: true,
    })
    expect(await verifyPassword(stored, "pw-1234", { ln: 10, r: 16 })).toMatchObject({
      needsRehash: true,
    })
    expect(await verifyPassword(stored, "pw-1234", { ln: 9 })).toMatchObject({
      needsRehash: false,
    })
    // Against the defaults (no options): ln=10 is weaker than ln=17.
    expect(await verifyPassword(stored, "pw-1234")).toMatchObject({ needsRehash: true })
  })

  test("a short salt or hash needs one", async () => {
    const salt = Buffer.alloc(8, 7)
    const key = scryptSync("pw-1234", salt, 32, { N: 1024, r: 8, p: 1 })
    const shortSalt = `$scrypt$ln=10,r=8,p=1$${b64(salt)}$${b64(key)}`
    expect(await verifyPassword(shortSalt, "pw-1234", CHEAP)).toEqual({
      valid: true,
      needsRehash: true,
    })
    const salt16 = Buffer.alloc(16, 7)
    const key16 = scryptSync("pw-1234", salt16, 16, { N: 1024, r: 8, p: 1 })
    const shortHash = `$scrypt$ln=10,r=8,p=1$${b64(salt16)}$${b64(key16)}`
    expect(await verifyPassword(shortHash, "pw-1234", CHEAP)).toEqual({
      valid: true,
      needsRehash: true,
    })
  })

  test("a policy naming argon2id asks to move scrypt hashes over", async () => {
    const stored = await hashPassword("pw-1234", CHEAP)
    const result = await verifyPassword(stored, "pw-1234", { algorithm: "argon2id", m: 64, t: 1 })
    expect(result).toEqual({ valid: true, needsRehash: true })
  })
})
