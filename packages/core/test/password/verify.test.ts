/**
 * What every algorithm shares: the password's limits and normalisation,
 * malformed stored hashes, the decoy for unknown users, and the errors'
 * contents (never a password, never a hash).
 */
import { describe, expect, test } from "vitest"
import {
  InvalidPassword,
  InvalidPasswordHash,
  MAX_PASSWORD_LENGTH,
  MissingPasswordDependency,
  hashPassword,
  verifyPassword,
} from "@tessera/core/password"
import { loadOptional } from "../../src/password/optional.js"

const CHEAP = { ln: 10, r: 8, p: 1 } as const

describe("the password", () => {
  test("NFC, NFD and compatibility forms of one password all verify", async () => {
    const nfc = "Caf\u00e9 \u00fcber \u00c5ngstr\u00f6m"
    const nfd = nfc.normalize("NFD")
    expect(nfd).not.toBe(nfc)
    const stored = await hashPassword(nfc, CHEAP)
    expect((await verifyPassword(stored, nfd, CHEAP)).valid).toBe(true)
    const fromNfd = await hashPassword(nfd, CHEAP)
    expect((await verifyPassword(fromNfd, nfc, CHEAP)).valid).toBe(true)
    // Full-width letters and digits, and the "ﬁ" ligature, fold under NFKC.
    const plain = await hashPassword("fine 42", CHEAP)
    expect((await verifyPassword(plain, "\ufb01ne \uff14\uff12", CHEAP)).valid).toBe(true)
    // Other letters are still other letters.
    expect((await verifyPassword(stored, "Cafe uber Angstrom", CHEAP)).valid).toBe(false)
  })

  test("empty, over-long, non-string and ill-formed passwords are refused by hashPassword", async () => {
    const secret = "s3cr3t-value-that-must-not-leak"
    const cases: [unknown, RegExp][] = [
      ["", /must not be empty/],
      [secret.repeat(40), new RegExp(`at most ${MAX_PASSWORD_LENGTH} characters`)],
      [undefined, /must be a string/],
      [42, /must be a string/],
      [`${secret}\ud800`, /invalid character/],
    ]
    for (const [password, message] of cases) {
      const error = await hashPassword(password as string, CHEAP).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(InvalidPassword)
      expect((error as InvalidPassword).type).toBe("InvalidPassword")
      expect((error as Error).message).toMatch(message)
      expect((error as Error).message).not.toContain("s3cr3t")
    }
  })

  test(`${MAX_PASSWORD_LENGTH} characters is accepted, one more is not`, async () => {
    const longest = "\u00e9".repeat(MAX_PASSWORD_LENGTH)
    const stored = await hashPassword(longest, CHEAP)
    expect((await verifyPassword(stored, longest, CHEAP)).valid).toBe(true)
    await expect(hashPassword(longest + "x", CHEAP)).rejects.toThrow(InvalidPassword)
  })

  test("verifyPassword answers false for a password hashPassword refuses, without hashing", async () => {
    const stored = await hashPassword("a real password", CHEAP)
    const huge = "x".repeat(10_000_000)
    const started = performance.now()
    expect(await verifyPassword(stored, huge, CHEAP)).toEqual({ valid: false, needsRehash: false })
    expect(await verifyPassword(stored, "", CHEAP)).toEqual({ valid: false, needsRehash: false })
    expect(await verifyPassword(stored, undefined as never, CHEAP)).toEqual({
      valid: false,
      needsRehash: false,
    })
    expect(performance.now() - started).toBeLessThan(200)
  })
})

describe("stored hashes", () => {
  const valid =
    "$scrypt$ln=10,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

  test.each([
    ["empty", ""],
    ["plain text", "hunter2"],
    ["not a string", 42],
    ["an unknown algorithm", "$pbkdf2-sha256$i=1000$c2FsdA$aGFzaA"],
    ["a missing parameter", "$scrypt$ln=10,r=8$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA"],
    ["a repeated parameter", valid.replace("p=1", "p=1,p=1")],
    ["an unknown parameter", valid.replace("p=1", "p=1,x=2")],
    ["a leading zero", valid.replace("ln=10", "ln=010")],
    ["padding", valid.replace("AAAAAAAAAAAAAAAAAAAAAA$", "AAAAAAAAAAAAAAAAAAAAAA==$")],
    ["a character outside base64", valid.replace("AAAA$", "AA_A$")],
    [
      "non-canonical trailing bits",
      valid.replace("AAAAAAAAAAAAAAAAAAAAAA$", "AAAAAAAAAAAAAAAAAAAAAB$"),
    ],
    ["no hash", "$scrypt$ln=10,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA"],
    ["a version scrypt does not have", valid.replace("$ln", "$v=1$ln")],
    ["too much memory (ln=25)", valid.replace("ln=10", "ln=25")],
    ["too much memory (ln=21, r=8)", valid.replace("ln=10", "ln=21")],
    [
      "an argon2 version that does not exist",
      "$argon2id$v=18$m=64,t=1,p=1$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
    ],
    ["argon2 beyond 1 GiB", "$argon2id$v=19$m=2097152,t=1,p=1$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA"],
  ])("%s: InvalidPasswordHash, whose message carries no part of the hash", async (_, stored) => {
    const error = await verifyPassword(stored as string, "a password").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InvalidPasswordHash)
    expect((error as InvalidPasswordHash).type).toBe("InvalidPasswordHash")
    const message = (error as Error).message
    expect(message).not.toContain("AAAAAAAA")
    expect(message).not.toContain("hunter2")
    expect(message).not.toContain("c2FsdA")
    expect(message).not.toContain("a password")
  })

  test("the well-formed string the cases above are made from does verify (as a mismatch)", async () => {
    expect(await verifyPassword(valid, "a password")).toEqual({ valid: false, needsRehash: false })
  })
})

describe("unknown users", () => {
  test("a null or undefined hash answers false after a real KDF run", async () => {
    expect(await verifyPassword(null, "a password", CHEAP)).toEqual({
      valid: false,
      needsRehash: false,
    })
    expect(await verifyPassword(undefined, "a password", CHEAP)).toEqual({
      valid: false,
      needsRehash: false,
    })
  })

  test("the decoy costs what a real check costs (median of 7, policy ln=14)", async () => {
    const policy = { ln: 14, r: 8, p: 1 } as const
    const stored = await hashPassword("the user's password", policy)
    const timed = async (run: () => Promise<unknown>) => {
      const started = performance.now()
      await run()
      return performance.now() - started
    }
    // Alternating, so a busy moment of the (shared) machine slows both sides alike.
    const real: number[] = []
    const decoy: number[] = []
    for (let i = 0; i < 7; i++) {
      real.push(await timed(() => verifyPassword(stored, "a wrong password", policy)))
      decoy.push(await timed(() => verifyPassword(null, "a wrong password", policy)))
    }
    const median = (times: number[]) => times.sort((a, b) => a - b)[3]!
    // Loose bounds (the machine is shared): a decoy that skipped the KDF would be ~1000x faster.
    expect(median(decoy) / median(real)).toBeGreaterThan(0.2)
    expect(median(decoy) / median(real)).toBeLessThan(5)
  })
})

describe("optional dependencies", () => {
  test("a missing peer is a MissingPasswordDependency that says what to install", async () => {
    const error = await loadOptional(
      ["@tessera/no-such-package", "@tessera/nor-this-one"],
      "Verifying bcrypt hashes",
    ).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MissingPasswordDependency)
    expect((error as MissingPasswordDependency).type).toBe("MissingPasswordDependency")
    expect((error as Error).message).toMatch(
      /^Verifying bcrypt hashes needs the optional peer dependency "@tessera\/no-such-package" or "@tessera\/nor-this-one".*npm install @tessera\/no-such-package$/,
    )
  })

  test("the first loadable specifier wins", async () => {
    const module = await loadOptional<{ hash: unknown }>(
      ["@tessera/no-such-package", "bcryptjs"],
      "test",
    )
    expect(typeof module.hash).toBe("function")
  })
})
