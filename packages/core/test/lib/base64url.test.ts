/**
 * The strict base64url decoder (lib/base64url.ts) accepts exactly the strings
 * its pattern check describes, on Node's `Buffer` fast path and on `atob`, and
 * decodes them as jose does.
 */
import { base64url } from "jose"
import fc from "fast-check"
import { describe, expect, test } from "vitest"
import { decodeBase64url, encodeBase64url, isBase64url } from "../../src/lib/base64url.js"

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/= \n.é"
const candidate = fc
  .array(fc.constantFrom(...alphabet), { maxLength: 24 })
  .map((chars) => chars.join(""))

function decoded(value: string): string | "refused" {
  try {
    return Buffer.from(decodeBase64url(value)).toString("hex")
  } catch {
    return "refused"
  }
}

describe("base64url", () => {
  test("the Node decoder accepts what isBase64url accepts, and decodes as jose", () => {
    fc.assert(
      fc.property(candidate, (value) => {
        const result = decoded(value)
        expect(result === "refused").toBe(!isBase64url(value))
        if (result !== "refused")
          expect(result).toBe(Buffer.from(base64url.decode(value)).toString("hex"))
      }),
      { numRuns: 5000 },
    )
  })

  test("edge cases", () => {
    for (const [value, ok] of [
      ["", true],
      ["AA", true],
      ["AA==", true],
      ["AA=", false],
      ["A", false],
      ["AAAAA", false],
      ["A===", false],
      ["AB=CD", false],
      ["AB+/", false],
      ["AB C", false],
    ] as const) {
      expect({ value, ok: decoded(value) !== "refused" }).toEqual({ value, ok })
    }
  })

  test("encode round-trips bytes and strings", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const encoded = encodeBase64url(bytes)
        expect(encoded).toBe(Buffer.from(bytes).toString("base64url"))
        expect(Buffer.from(decodeBase64url(encoded)).equals(Buffer.from(bytes))).toBe(true)
      }),
    )
    expect(encodeBase64url("€")).toBe(Buffer.from("€").toString("base64url"))
  })
})
