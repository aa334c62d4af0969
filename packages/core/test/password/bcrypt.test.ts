/**
 * Legacy bcrypt hashes, verified through the optional peer `bcryptjs`: the
 * OpenBSD / crypt_blowfish test vectors, the `$2a$`/`$2b$`/`$2y$` spellings,
 * passwords hashed without normalisation, and the bounds on what is attempted.
 */
import { describe, expect, test } from "vitest"
import bcryptjs from "bcryptjs"
import { InvalidPasswordHash, verifyPassword } from "@tessera/core/password"

/** crypt_blowfish's and jBCrypt's vectors (OpenBSD's algorithm). */
const VECTORS = [
  ["U*U", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"],
  ["U*U*", "$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK"],
  ["U*U*U", "$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a"],
  ["abcdefghijklmnopqrstuvwxyz", "$2a$06$.rCVZVOThsIa97pEDOxvGuRRgzG64bvtJ0938xuqzv18d3ZpQhstC"],
  [
    "~!@#$%^&*()      ~!@#$%^&*()PNBFRD",
    "$2a$06$fPIsBO8qRqkjj273rfaOI.HtSV9jLDpTbZn782DC6/t7qT67P6FfO",
  ],
  [
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789chars after 72 are ignored",
    "$2a$05$abcdefghijklmnopqrstuu5s2v8.iXieOjg/.AySBTTZIIVFJeBui",
  ],
] as const

describe("bcrypt known answers", () => {
  test.each(VECTORS)("%s", async (password, stored) => {
    // $2b$ and $2y$ are the same algorithm under other names.
    for (const prefix of ["$2a$", "$2b$", "$2y$"]) {
      const spelled = prefix + stored.slice(4)
      expect(await verifyPassword(spelled, password)).toEqual({ valid: true, needsRehash: true })
      expect(await verifyPassword(spelled, `x${password}`)).toEqual({
        valid: false,
        needsRehash: false,
      })
    }
  })

  test("bcrypt reads only the first 72 bytes (a reason to rehash)", async () => {
    const [password, stored] = VECTORS[5]
    expect((await verifyPassword(stored, password.slice(0, 72) + "anything else")).valid).toBe(true)
    expect((await verifyPassword(stored, password.slice(0, 71))).valid).toBe(false)
  })
})

describe("bcrypt hashes from another system", () => {
  test("a password hashed without normalisation verifies as typed, and normalised too", async () => {
    // "é" as e + combining acute (NFD), as some other system may have stored it.
    const typed = "cafe\u0301-au-lait"
    const stored = await bcryptjs.hash(typed, 4)
    expect(await verifyPassword(stored, typed)).toEqual({ valid: true, needsRehash: true })
    // The precomposed form (NFC) is the same password to the user.
    expect((await verifyPassword(stored, "caf\u00e9-au-lait")).valid).toBe(false)
    const storedNfc = await bcryptjs.hash("caf\u00e9-au-lait", 4)
    expect((await verifyPassword(storedNfc, typed)).valid).toBe(true)
  })

  test("costs above 16 and unknown variants are refused, naming no hash", async () => {
    const slow = "$2b$17$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    const error = await verifyPassword(slow, "U*U").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidPasswordHash)
    expect((error as Error).message).toMatch(/cost must be an integer from 4 to 16/)
    expect((error as Error).message).not.toContain("CCCCCC")
    await expect(
      verifyPassword("$2x$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW", "U*U"),
    ).rejects.toThrow(InvalidPasswordHash)
    await expect(verifyPassword("$2b$05$tooShort", "U*U")).rejects.toThrow(InvalidPasswordHash)
  })
})
