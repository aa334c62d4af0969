/**
 * Users of an app that moves from Auth.js v5 stay signed in: an Auth.js JWT
 * session cookie (tokens made by @auth/core's own `encode`, kept as fixtures)
 * is read once, re-issued as Tessera's, and the Auth.js cookie expired.
 */
import { readFileSync } from "node:fs"
import { describe, expect, test } from "vitest"
import { Auth, getSession, type AuthConfig } from "@tessera/core"
import { decode } from "@tessera/core/jwt"
import {
  HTTPS_ORIGIN,
  Jar,
  get,
  isExpired,
  makeConfig,
  sessionCookieName,
  setCookie,
  setCookies,
} from "../harness/index.js"

/**
 * Made with @auth/core 0.41.3: `encode({ token: claims, secret, salt: <cookie name>, maxAge })`,
 * 100 years for the live ones, -1 hour for `expired`, another secret for `otherSecret`.
 */
const fixtures = JSON.parse(
  readFileSync(new URL("../fixtures/authjs-session-tokens.json", import.meta.url), "utf8"),
) as Record<"secret" | "plain" | "secure" | "expired" | "otherSecret", string> & {
  claims: Record<string, unknown>
}

const configWith = (overrides: Partial<AuthConfig> = {}) =>
  makeConfig({ secret: fixtures.secret, debug: true, ...overrides })

async function readSession(config: AuthConfig, jar: Jar, origin?: string) {
  const response = await Auth(get("/auth/session", { jar, origin }), config)
  jar.update(response)
  return { response, body: (await response.json()) as Record<string, any> | null }
}

describe("an Auth.js JWT session cookie", () => {
  test("is read, re-issued as Tessera's with the same claims, and expired", async () => {
    const { config, log } = configWith()
    const jar = new Jar({ "authjs.session-token": fixtures.plain })
    const { response, body } = await readSession(config, jar)
    expect(body?.user).toEqual({ name: "Ada Lovelace", email: "ada@example.com", image: null })
    expect(isExpired(setCookie(response, "authjs.session-token")!)).toBe(true)
    const issued = setCookie(response, sessionCookieName())!
    const claims = await decode({
      token: issued.value,
      secret: fixtures.secret,
      salt: sessionCookieName(),
    })
    expect(claims).toMatchObject({ sub: "user-ada", email: "ada@example.com" })
    // Capped at Tessera's maxAge (30 days), not the 100 years it was made with.
    expect(Number(issued.attributes["max-age"])).toBeLessThanOrEqual(30 * 24 * 3600)

    // From now on the browser holds Tessera's cookie only, and stays signed in.
    expect([...jar.keys()]).toEqual([sessionCookieName()])
    const again = await readSession(config, jar)
    expect(again.body?.user?.email).toBe("ada@example.com")
    expect(setCookies(again.response)).toEqual([])
    expect(log.errors).toEqual([])
  })

  test("the __Secure- name on https, and a cookie Auth.js split into chunks", async () => {
    const { config } = configWith()
    const secure = new Jar({ "__Secure-authjs.session-token": fixtures.secure })
    expect((await readSession(config, secure, HTTPS_ORIGIN)).body?.user?.email).toBe(
      "ada@example.com",
    )
    expect([...secure.keys()]).toEqual([sessionCookieName(HTTPS_ORIGIN)])

    const half = Math.ceil(fixtures.plain.length / 2)
    const chunked = new Jar({
      "authjs.session-token.0": fixtures.plain.slice(0, half),
      "authjs.session-token.1": fixtures.plain.slice(half),
    })
    const { response, body } = await readSession(config, chunked)
    expect(body?.user?.email).toBe("ada@example.com")
    expect(isExpired(setCookie(response, "authjs.session-token.0")!)).toBe(true)
    expect(isExpired(setCookie(response, "authjs.session-token.1")!)).toBe(true)
  })

  test("expired, made with another secret, or garbage: no session, the cookie is cleared, nothing decrypted is logged", async () => {
    for (const value of [fixtures.expired, fixtures.otherSecret, "not-a-token"]) {
      const { config, log } = configWith()
      const jar = new Jar({ "authjs.session-token": value })
      const { response, body } = await readSession(config, jar)
      expect(body).toBeNull()
      expect(isExpired(setCookie(response, "authjs.session-token")!)).toBe(true)
      expect(setCookie(response, sessionCookieName())).toBeUndefined()
      expect(log.errors).toEqual([])
      expect(log.refusals.map((e) => (e as { type?: string }).type)).toEqual(["JWTSessionError"])
      expect(JSON.stringify(log.debug)).not.toContain("Ada")
    }
  })

  test("a Tessera session cookie wins; the Auth.js one is left alone", async () => {
    const { config } = configWith()
    const first = new Jar({ "authjs.session-token": fixtures.plain })
    await readSession(config, first)
    const tessera = first.get(sessionCookieName())!
    const jar = new Jar({ [sessionCookieName()]: tessera, "authjs.session-token": "anything" })
    const { response, body } = await readSession(config, jar)
    expect(body?.user?.email).toBe("ada@example.com")
    expect(setCookie(response, "authjs.session-token")).toBeUndefined()
  })

  test("adoptAuthjsSessions: false ignores it", async () => {
    const { config } = configWith({ adoptAuthjsSessions: false })
    const jar = new Jar({ "authjs.session-token": fixtures.plain })
    const { response, body } = await readSession(config, jar)
    expect(body).toBeNull()
    expect(setCookies(response)).toEqual([])
  })

  test("getSession() (the framework path) adopts it too", async () => {
    const { config } = configWith()
    const { session, cookies } = await getSession(
      { url: "http://localhost:3000/", cookies: { "authjs.session-token": fixtures.plain } },
      config,
    )
    expect(session?.user?.email).toBe("ada@example.com")
    expect(cookies.map((c) => c.name).sort()).toEqual(
      ["authjs.session-token", sessionCookieName()].sort(),
    )
  })
})
