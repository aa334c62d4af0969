/**
 * Attacks on Auth.js session cookie adoption (session/authjs-cookies.ts, read by
 * jwt/authjs.ts and jwt/cbc-hmac.ts): someone without the secret edits a
 * genuine Auth.js cookie (or makes one up) and sends it. Nothing decrypts, no
 * Tessera session is issued, and a padding oracle gets no answer: every edit of
 * an `A256CBC-HS512` cookie fails on its tag, before any decryption.
 */
import { readFileSync } from "node:fs"
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { Jar, get, makeConfig, sessionCookieName, setCookie } from "../harness/index.js"

const fixtures = JSON.parse(
  readFileSync(new URL("../fixtures/authjs-session-tokens.json", import.meta.url), "utf8"),
) as { secret: string; plain: string }

const encode = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")
const decode = (text: string) => new Uint8Array(Buffer.from(text, "base64url"))
const json = (value: unknown) => encode(new TextEncoder().encode(JSON.stringify(value)))

/** The genuine cookie's parts, and a copy of it with `edit` applied to one part's bytes. */
const [header, , iv, ciphertext, tag] = fixtures.plain.split(".") as [
  string,
  string,
  string,
  string,
  string,
]
function edited(part: "iv" | "ciphertext" | "tag", edit: (bytes: Uint8Array) => Uint8Array) {
  const parts = { iv, ciphertext, tag }
  parts[part] = encode(edit(decode(parts[part])))
  return `${header}..${parts.iv}.${parts.ciphertext}.${parts.tag}`
}
const xor = (index: number, mask: number) => (bytes: Uint8Array) => {
  const copy = bytes.slice()
  copy[index < 0 ? copy.length + index : index]! ^= mask
  return copy
}

/** What the server answers for a request carrying `cookie` as the Auth.js session cookie. */
async function send(cookie: string) {
  const { config, log } = makeConfig({ secret: fixtures.secret, debug: true })
  const response = await Auth(
    get("/auth/session", { jar: new Jar({ "authjs.session-token": cookie }) }),
    config,
  )
  return {
    status: response.status,
    body: await response.text(),
    issued: setCookie(response, sessionCookieName()),
    cleared: setCookie(response, "authjs.session-token")?.value,
    refusals: log.refusals.map((error) => error.message),
    errors: log.errors,
  }
}

describe("a forged Auth.js session cookie", () => {
  test("the genuine cookie signs in (the baseline the forgeries start from)", async () => {
    const answer = await send(fixtures.plain)
    expect(answer.issued).toBeDefined()
    expect(answer.body).toContain("ada@example.com")
  })

  test("edited or made up without the secret: no session, nothing issued, nothing decrypted", async () => {
    const forgeries = {
      // CBC is malleable: flipping an IV bit flips the same plaintext bit. The tag stops it.
      "IV bit flip (would change the first claims)": edited("iv", xor(2, 0x01)),
      "ciphertext bit flip": edited("ciphertext", xor(-20, 0x80)),
      "tag cut to 16 bytes": edited("tag", (bytes) => bytes.subarray(0, 16)),
      "tag extended to 64 bytes": edited("tag", (bytes) => new Uint8Array([...bytes, ...bytes])),
      "header switched to A256GCM": `${json({ alg: "dir", enc: "A256GCM" })}..${iv}.${ciphertext}.${tag}`,
      "header switched to A128CBC-HS256": `${json({ alg: "dir", enc: "A128CBC-HS256" })}..${iv}.${ciphertext}.${tag}`,
      "alg none with claims in the clear": `${json({ alg: "none" })}.${json({ sub: "admin", email: "admin@example.com" })}.`,
      "alg none as a JWE": `${json({ alg: "none", enc: "A256CBC-HS512" })}..${iv}.${ciphertext}.`,
    }
    for (const [label, cookie] of Object.entries(forgeries)) {
      const answer = await send(cookie)
      expect({ label, body: answer.body, issued: answer.issued }).toEqual({
        label,
        body: "null",
        issued: undefined,
      })
      expect(answer.cleared, label).toBe("")
      expect(answer.errors, label).toEqual([])
      expect(answer.refusals, label).toHaveLength(1)
    }
  })

  test("no padding oracle: every edit of the block before the last fails the same way, on the tag", async () => {
    // A padding oracle edits the second-to-last ciphertext block byte by byte and watches
    // for the edits whose padding comes out valid. Here no edit reaches the decryption.
    const blocks = decode(ciphertext).length / 16
    expect(blocks).toBeGreaterThan(1)
    const target = (blocks - 1) * 16 - 1
    const answers = []
    for (let mask = 1; mask < 256; mask++) {
      answers.push(await send(edited("ciphertext", xor(target, mask))))
    }
    const first = answers[0]!
    expect(first.refusals).toEqual([
      "The Auth.js session cookie could not be decoded (JWEDecryptionFailed)",
    ])
    for (const answer of answers) expect(answer).toEqual(first)
  })
})
