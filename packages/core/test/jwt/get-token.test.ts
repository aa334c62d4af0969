/** `getToken` of `@tessera/core/jwt`: the session cookie (chunked or not) or `Authorization: Bearer`. */
import { afterEach, describe, expect, test, vi } from "vitest"
import { MissingSecret } from "@tessera/core/errors"
import { encode, getToken } from "@tessera/core/jwt"
import { OTHER_SECRET, SECRET } from "../harness/index.js"
import { claims, salt } from "./fixtures.js"

afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllEnvs()
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

  test("takes Node's and Express's request: headers with arrays, a path for url, req.secure", async () => {
    // What `req` is in Express (and, but for `secure`, in node:http): the headers as
    // IncomingHttpHeaders, `url` the path alone, `secure` true on https (behind a proxy, as
    // Express's `trust proxy` decides).
    const secureSalt = "__Secure-tessera.session-token"
    const token = await encode({ token: claims, secret: SECRET, salt: secureSalt })
    const headers = {
      cookie: `${secureSalt}=${token}`,
      "accept-language": ["en", "de"],
      "x-absent": undefined,
    }
    const expressReq = { url: "/api/calendar", secure: true, headers }
    expect(await getToken({ req: expressReq, secret: SECRET })).toMatchObject(claims)
    // Without `secure`, the plain cookie name, as for an http request.
    const plain = await encode({ token: claims, secret: SECRET, salt })
    const nodeReq = { url: "/api", headers: { cookie: `${salt}=${plain}`, "x-absent": undefined } }
    expect(await getToken({ req: nodeReq, secret: SECRET })).toMatchObject(claims)
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

  test("raw answers null for a malformed Bearer header or cookie, not the malformed value", async () => {
    for (const authorization of [
      "Bearer not-a-jwe",
      "Bearer a.b.c",
      "Bearer ",
      "Bearer a..b.c.d e",
    ]) {
      expect(
        await getToken({ req: req("http://a.example/", { authorization }), raw: true }),
      ).toBeNull()
    }
    expect(
      await getToken({ req: req("http://a.example/", { cookie: `${salt}=garbage` }), raw: true }),
    ).toBeNull()
    const token = await encode({ token: claims, secret: SECRET, salt })
    expect(
      await getToken({
        req: req("http://a.example/", { authorization: `Bearer ${token}` }),
        raw: true,
      }),
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

  test("logger (an Auth.js option): a token that does not decode is reported at debug, without the token or its claims", async () => {
    const debug: unknown[][] = []
    const logger = { debug: (...args: unknown[]) => void debug.push(args) }
    const other = await encode({ token: claims, secret: OTHER_SECRET, salt })
    const found = await getToken({
      req: req("http://a.example/", { cookie: `${salt}=${other}` }),
      secret: SECRET,
      logger,
    })
    expect(found).toBeNull()
    expect(debug).toHaveLength(1)
    const logged = JSON.stringify(debug)
    expect(logged).not.toContain(other)
    for (const value of Object.values(claims))
      if (typeof value === "string") expect(logged).not.toContain(value)
    // A token that decodes logs nothing.
    const mine = await encode({ token: claims, secret: SECRET, salt })
    await getToken({
      req: req("http://a.example/", { cookie: `${salt}=${mine}` }),
      secret: SECRET,
      logger,
    })
    expect(debug).toHaveLength(1)
  })

  test("the secret defaults to AUTH_SECRET (and AUTH_SECRET_1..3); with none at all it is MissingSecret", async () => {
    const token = await encode({ token: claims, secret: OTHER_SECRET, salt })
    const request = () => req("http://a.example/", { cookie: `${salt}=${token}` })
    vi.stubEnv("AUTH_SECRET", SECRET)
    vi.stubEnv("AUTH_SECRET_1", OTHER_SECRET)
    expect(await getToken({ req: request() })).toMatchObject(claims)
    vi.stubEnv("AUTH_SECRET", "")
    vi.stubEnv("AUTH_SECRET_1", "")
    await expect(getToken({ req: request() })).rejects.toThrow(MissingSecret)
  })
})
