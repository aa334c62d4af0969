/**
 * `encode`/`decode` of `@tessera/core/jwt`: compact JWE (`dir`, `A256GCM`) under an HKDF
 * key with the cookie name as salt; interoperable with jose both ways; rotation.
 */
import { hkdfSync } from "node:crypto"
import { afterEach, describe, expect, test, vi } from "vitest"
import { EncryptJWT, decodeProtectedHeader, jwtDecrypt } from "jose"
import { decode, deriveEncryptionKey, encode } from "@tessera/core/jwt"
import { Auth } from "@tessera/core"
import { OTHER_SECRET, SECRET } from "../harness/index.js"
import { claims, now, salt } from "./fixtures.js"

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
})

describe("encode / decode", () => {
  test("a compact JWE with dir/A256GCM and a kid; iat, exp (30 days) and jti added", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt })
    const parts = token.split(".")
    expect(parts).toHaveLength(5)
    expect(parts[1]).toBe("")
    const header = decodeProtectedHeader(token)
    expect(header).toEqual({ alg: "dir", enc: "A256GCM", kid: expect.any(String) })
    const payload = await decode({ token, secret: SECRET, salt })
    expect(payload).toMatchObject(claims)
    expect(payload!.exp! - payload!.iat!).toBe(30 * 24 * 60 * 60)
    expect(Math.abs(payload!.iat! - now())).toBeLessThanOrEqual(1)
    expect(payload!.jti).toMatch(/^[0-9a-f-]{36}$/)
  })

  test("maxAge sets exp", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt, maxAge: 60 })
    const payload = await decode({ token, secret: SECRET, salt })
    expect(payload!.exp! - payload!.iat!).toBe(60)
  })

  test("the key is HKDF-SHA-256(secret, salt = cookie name, info naming the salt), 32 bytes", async () => {
    const ours = await deriveEncryptionKey(SECRET, salt)
    const independent = new Uint8Array(
      hkdfSync("sha256", SECRET, salt, `Tessera Generated Encryption Key (${salt})`, 32),
    )
    expect(Buffer.from(ours).toString("hex")).toBe(Buffer.from(independent).toString("hex"))
    expect(Buffer.from(await deriveEncryptionKey(SECRET, "other")).equals(Buffer.from(ours))).toBe(
      false,
    )
  })

  test("a token from encode decrypts with jose.jwtDecrypt given the derived key", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt })
    const { payload, protectedHeader } = await jwtDecrypt(
      token,
      await deriveEncryptionKey(SECRET, salt),
    )
    expect(payload).toMatchObject(claims)
    expect(protectedHeader.enc).toBe("A256GCM")
  })

  test("a token from jose (with or without kid) decodes", async () => {
    const key = await deriveEncryptionKey(SECRET, salt)
    const plain = await new EncryptJWT({ sub: "from-jose" })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .encrypt(key)
    expect((await decode({ token: plain, secret: SECRET, salt }))!.sub).toBe("from-jose")
    const kid = decodeProtectedHeader(await encode({ token: {}, secret: SECRET, salt })).kid!
    const withKid = await new EncryptJWT({ sub: "kid" })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM", kid })
      .encrypt(key)
    expect((await decode({ token: withKid, secret: [OTHER_SECRET, SECRET], salt }))!.sub).toBe(
      "kid",
    )
  })

  test("the salt binds a token to its cookie: another salt cannot open it", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt })
    await expect(decode({ token, secret: SECRET, salt: "tessera.other" })).rejects.toThrow()
  })

  test("rotation: encode uses the first secret, decode accepts any", async () => {
    const token = await encode({ token: claims, secret: [SECRET, OTHER_SECRET], salt })
    expect((await decode({ token, secret: SECRET, salt }))!.sub).toBe("user-1")
    await expect(decode({ token, secret: OTHER_SECRET, salt })).rejects.toThrow()
    const old = await encode({ token: claims, secret: OTHER_SECRET, salt })
    expect((await decode({ token: old, secret: [SECRET, OTHER_SECRET], salt }))!.sub).toBe("user-1")
    // Auth.js's error, word for word.
    await expect(decode({ token: old, secret: [SECRET], salt })).rejects.toEqual(
      new Error("no matching decryption secret"),
    )
  })

  test("inside Auth(), keys are derived once per configuration, secret and salt", async () => {
    const config = {
      secret: `fresh-${crypto.randomUUID()}-${crypto.randomUUID()}`,
      trustHost: true,
      providers: [],
    }
    const token = await encode({
      token: claims,
      secret: config.secret,
      salt: "tessera.session-token",
    })
    const deriveBits = vi.spyOn(crypto.subtle, "deriveBits")
    const request = () =>
      new Request("http://localhost:3000/auth/session", {
        headers: { cookie: `tessera.session-token=${token}` },
      })
    for (let i = 0; i < 20; i++) {
      const session = await (await Auth(request(), config)).json()
      expect(session.user.name).toBe(claims.name)
    }
    expect(deriveBits).toHaveBeenCalledTimes(1)
  })

  test("no token -> null; no secret -> TypeError", async () => {
    expect(await decode({ token: undefined, secret: SECRET, salt })).toBeNull()
    expect(await decode({ token: "", secret: SECRET, salt })).toBeNull()
    await expect(decode({ token: "x", secret: [], salt })).rejects.toThrow(TypeError)
    await expect(encode({ token: {}, secret: "", salt })).rejects.toThrow(TypeError)
  })
})
