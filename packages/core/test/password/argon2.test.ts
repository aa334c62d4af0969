/**
 * argon2id through the optional peer `@node-rs/argon2`: the reference
 * implementation's test vectors, hashes exchanged with the library's own
 * `hash`/`verify` in both directions, and `needsRehash`.
 *
 * RFC 9106's own vector (section 5.3) uses a secret and associated data; the
 * library exposes no associated data, so the vectors of the reference
 * implementation (phc-winner-argon2, `src/test.c`), which use neither, stand in.
 */
import * as argon2 from "@node-rs/argon2"
import { describe, expect, test } from "vitest"
import { ARGON2_DEFAULTS, hashPassword, verifyPassword } from "@tessera/core/password"

/** Test-only cost (64 KiB); the defaults are exercised once. */
const CHEAP = { algorithm: "argon2id", m: 64, t: 1, p: 1 } as const

describe("argon2 known answers (reference implementation, password / somesalt)", () => {
  test.each([
    "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc",
    "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4",
    "$argon2id$v=19$m=256,t=2,p=2$c29tZXNhbHQ$bQk8UB/VmZZF4Oo79iDXuL5/0ttZwg2f/5U52iv1cDc",
  ])("%s", async (stored) => {
    const policy = { algorithm: "argon2id", m: 256, t: 2, p: 1 } as const
    expect(await verifyPassword(stored, "password", policy)).toEqual({
      valid: true,
      // The 8-byte salt ("somesalt") is below the 16 bytes hashes get here.
      needsRehash: true,
    })
    expect((await verifyPassword(stored, "passw0rd", policy)).valid).toBe(false)
  })

  test("argon2i (versions 1.3 and 1.0) verifies, and always needs a rehash", async () => {
    for (const stored of [
      "$argon2i$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$wWKIMhR9lyDFvRz9YTZweHKfbftvj+qf+YFY4NeBbtA",
      // No `v=`: version 1.0 (0x10), as hashes made before 1.3 were written.
      "$argon2i$m=65536,t=2,p=1$c29tZXNhbHQ$9sTbSlTio3Biev89thdrlKKiCaYsjjYVJxGAL3swxpQ",
    ]) {
      expect(await verifyPassword(stored, "password")).toEqual({ valid: true, needsRehash: true })
      expect((await verifyPassword(stored, "Password")).valid).toBe(false)
    }
  })
})

describe("hashPassword with argon2id", () => {
  test("defaults are OWASP's (m = 19 MiB, t = 2, p = 1), and @node-rs/argon2 agrees", async () => {
    expect(ARGON2_DEFAULTS).toEqual({ m: 19456, t: 2, p: 1 })
    const started = performance.now()
    const stored = await hashPassword("correct horse battery staple", { algorithm: "argon2id" })
    const elapsed = performance.now() - started
    expect(stored).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    )
    expect(await argon2.verify(stored, "correct horse battery staple")).toBe(true)
    expect(await argon2.verify(stored, "correct horse battery stapl")).toBe(false)
    expect(
      await verifyPassword(stored, "correct horse battery staple", { algorithm: "argon2id" }),
    ).toEqual({ valid: true, needsRehash: false })
    console.info(`[password] argon2id m=19456 t=2 p=1: one hash took ${elapsed.toFixed(0)} ms`)
  })

  test("a hash made by @node-rs/argon2 itself verifies here", async () => {
    const stored = await argon2.hash("from the library", {
      algorithm: 2 as argon2.Algorithm,
      memoryCost: 64,
      timeCost: 1,
    })
    expect(await verifyPassword(stored, "from the library", CHEAP)).toEqual({
      valid: true,
      needsRehash: false,
    })
    expect((await verifyPassword(stored, "from the librarY", CHEAP)).valid).toBe(false)
  })

  test("argon2d hashes made by the library verify and need a rehash", async () => {
    const stored = await argon2.hash("d variant", {
      algorithm: 0 as argon2.Algorithm,
      memoryCost: 64,
      timeCost: 1,
    })
    expect(stored.startsWith("$argon2d$")).toBe(true)
    expect(await verifyPassword(stored, "d variant", CHEAP)).toEqual({
      valid: true,
      needsRehash: true,
    })
  })

  test("needsRehash follows the policy's parameters and algorithm", async () => {
    const stored = await hashPassword("pw-5678", CHEAP)
    expect(await verifyPassword(stored, "pw-5678", CHEAP)).toMatchObject({ needsRehash: false })
    expect(await verifyPassword(stored, "pw-5678", { ...CHEAP, m: 128 })).toMatchObject({
      needsRehash: true,
    })
    expect(await verifyPassword(stored, "pw-5678", { ...CHEAP, t: 2 })).toMatchObject({
      needsRehash: true,
    })
    // No policy given: compared with argon2id's defaults, m=64 is weaker.
    expect(await verifyPassword(stored, "pw-5678")).toMatchObject({ needsRehash: true })
    // An explicit scrypt policy moves argon2id hashes over.
    expect(await verifyPassword(stored, "pw-5678", { algorithm: "scrypt" })).toMatchObject({
      needsRehash: true,
    })
  })

  test("a strong argon2id hash is kept when the policy does not name an algorithm", async () => {
    const stored = await hashPassword("pw-strong", { algorithm: "argon2id" })
    expect(await verifyPassword(stored, "pw-strong")).toEqual({ valid: true, needsRehash: false })
  })

  test("the decoy for an unknown user runs argon2id when the policy does", async () => {
    expect(await verifyPassword(null, "anything", CHEAP)).toEqual({
      valid: false,
      needsRehash: false,
    })
  })

  test("options out of bounds are refused", async () => {
    await expect(hashPassword("pw", { algorithm: "argon2id", m: 4 })).rejects.toThrow(TypeError)
    await expect(hashPassword("pw", { algorithm: "argon2id", m: 16, p: 4 })).rejects.toThrow(/8·p/)
    await expect(hashPassword("pw", { algorithm: "argon2id", t: 0 })).rejects.toThrow(/t must be/)
  })
})
