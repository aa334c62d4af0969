/**
 * `@tessera/core/jwt`: compact JWE (`dir`, `A256GCM`) under an HKDF key with
 * the cookie name as salt; interoperable with jose both ways; rotation; the
 * synchronous fast path accepts and refuses exactly what jose does; `getToken`.
 */
import { hkdfSync } from "node:crypto"
import { afterEach, describe, expect, test, vi } from "vitest"
import { CompactEncrypt, EncryptJWT, base64url, decodeProtectedHeader, jwtDecrypt } from "jose"
import { decode, deriveEncryptionKey, encode, getToken } from "@tessera/core/jwt"
import { Auth } from "@tessera/core"
import { OTHER_SECRET, SECRET } from "../harness/index.js"

const salt = "tessera.session-token"
const claims = { name: "Ada", email: "ada@example.com", picture: null, sub: "user-1" }
const now = () => Math.floor(Date.now() / 1000)

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
    await expect(decode({ token: old, secret: [SECRET], salt })).rejects.toThrow(/key id/)
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

type Outcome = { ok: true; sub: unknown } | { ok: false }
async function outcome(
  decoder: typeof decode,
  token: string,
  secret: string | string[] = SECRET,
): Promise<Outcome> {
  try {
    const payload = await decoder({ token, secret, salt })
    return { ok: true, sub: payload?.sub }
  } catch {
    return { ok: false }
  }
}

/** The jwt module loaded where `process.getBuiltinModule` is missing: Web Crypto and jose only. */
async function loadWebCryptoOnly(): Promise<typeof import("@tessera/core/jwt")> {
  const original = process.getBuiltinModule
  ;(process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined
  try {
    vi.resetModules()
    return await import("@tessera/core/jwt")
  } finally {
    process.getBuiltinModule = original
    vi.resetModules()
  }
}

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
      } catch {
        reference = { ok: false }
      }
      rows.push({ label, fast, slow, reference })
    }
    for (const row of rows) {
      expect({ label: row.label, fast: row.fast }).toEqual({ label: row.label, fast: row.slow })
      expect({ label: row.label, fast: row.fast }).toEqual({
        label: row.label,
        fast: row.reference,
      })
    }
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

describe("getToken", () => {
  const req = (url: string, headers: Record<string, string>) => new Request(url, { headers })

  test("reads the session cookie", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt })
    const found = await getToken({
      req: req("http://a.example/", { cookie: `other=1; ${salt}=${token}` }),
      secret: SECRET,
    })
    expect(found).toMatchObject(claims)
  })

  test("reads a chunked cookie", async () => {
    const token = await encode({
      token: { ...claims, big: "x".repeat(6000) },
      secret: SECRET,
      salt,
    })
    const cut = Math.floor(token.length / 2)
    const cookie = `${salt}.1=${token.slice(cut)}; ${salt}.0=${token.slice(0, cut)}`
    expect(
      (await getToken({ req: req("http://a.example/", { cookie }), secret: SECRET }))!.big,
    ).toHaveLength(6000)
  })

  test("reads Authorization: Bearer when there is no cookie", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt })
    expect(
      await getToken({
        req: req("http://a.example/", { authorization: `Bearer ${token}` }),
        secret: SECRET,
      }),
    ).toMatchObject(claims)
    expect(
      await getToken({ req: { headers: { authorization: `Bearer ${token}` } }, secret: SECRET }),
    ).toMatchObject(claims)
  })

  test("https requests use the __Secure- cookie name (and it is the salt)", async () => {
    const name = "__Secure-tessera.session-token"
    const token = await encode({ token: claims, secret: SECRET, salt: name })
    expect(
      await getToken({
        req: req("https://a.example/", { cookie: `${name}=${token}` }),
        secret: SECRET,
      }),
    ).toMatchObject(claims)
    expect(
      await getToken({
        req: req("http://a.example/", { cookie: `${name}=${token}` }),
        secret: SECRET,
      }),
    ).toBeNull()
    expect(
      await getToken({
        req: req("http://a.example/", { cookie: `${name}=${token}` }),
        secret: SECRET,
        secureCookie: true,
      }),
    ).toMatchObject(claims)
  })

  test("custom cookieName and salt", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt: "my-salt" })
    const found = await getToken({
      req: req("http://a.example/", { cookie: `my-cookie=${token}` }),
      secret: SECRET,
      cookieName: "my-cookie",
      salt: "my-salt",
    })
    expect(found).toMatchObject(claims)
  })

  test("raw returns the encrypted token as sent", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt })
    expect(
      await getToken({ req: req("http://a.example/", { cookie: `${salt}=${token}` }), raw: true }),
    ).toBe(token)
  })

  test("a bad or missing token is null, never a throw", async () => {
    expect(await getToken({ req: req("http://a.example/", {}), secret: SECRET })).toBeNull()
    expect(
      await getToken({
        req: req("http://a.example/", { cookie: `${salt}=garbage` }),
        secret: SECRET,
      }),
    ).toBeNull()
    expect(
      await getToken({
        req: req("http://a.example/", { authorization: "Basic abc" }),
        secret: SECRET,
      }),
    ).toBeNull()
    const other = await encode({ token: claims, secret: OTHER_SECRET, salt })
    expect(
      await getToken({
        req: req("http://a.example/", { cookie: `${salt}=${other}` }),
        secret: SECRET,
      }),
    ).toBeNull()
  })

  test("the secret defaults to AUTH_SECRET (and AUTH_SECRET_1..3); with none at all it is a TypeError", async () => {
    const token = await encode({ token: claims, secret: OTHER_SECRET, salt })
    const request = () => req("http://a.example/", { cookie: `${salt}=${token}` })
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_SECRET_1", OTHER_SECRET)
    expect(await getToken({ req: request() })).toMatchObject(claims)
    vi.stubEnv("AUTH_SECRET", "")
    vi.stubEnv("AUTH_SECRET_1", "")
    await expect(getToken({ req: request() })).rejects.toThrow(TypeError)
  })
})
