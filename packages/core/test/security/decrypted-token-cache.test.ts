/**
 * The key ring keeps the tokens it decrypted (by salt, then token), so that a
 * session cookie sent with every request is decrypted once. What must hold:
 *
 * - a token read once still expires: its claims are checked on every use;
 * - a token is only what it was made for: the session token of plain http,
 *   already read, is not a session under the `__Secure-` cookie (another salt);
 * - another configuration (another secret) never reads it, read or not;
 * - a tampered copy of a token that was read is refused, not taken from memory;
 * - what a `jwt` or `session` callback does to the claims it is handed stays
 *   in that request: the next check gets the token's claims as made.
 */
import { afterEach, describe, expect, test, vi } from "vitest"
import { Auth } from "@tessera/core"
import {
  get,
  HTTPS_ORIGIN,
  isExpired,
  makeConfig,
  OTHER_SECRET,
  sessionCookieName,
  setCookie,
  signIn,
} from "../harness/index.js"

afterEach(() => vi.useRealTimers())

async function signedIn(overrides: Parameters<typeof makeConfig>[0] = {}) {
  const { config } = makeConfig(overrides)
  const { jar } = await signIn(config)
  const token = jar.get(sessionCookieName())!
  expect(token).toBeTruthy()
  return { config, jar, token }
}

const sessionOf = async (response: Response) => (await response.json()) as { user?: unknown }

describe("decrypted tokens kept by the key ring", () => {
  test("a session cookie read before still expires", async () => {
    // The token's own `exp` ends it: a short maxAge, well within the absolute lifetime.
    const { config, jar, token } = await signedIn({ session: { maxAge: 60 } })
    expect((await sessionOf(await Auth(get("/auth/session", { jar }), config))).user).toBeTruthy()

    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 120 * 1000)
    const response = await Auth(get("/auth/session", { jar }), config)
    expect(await response.json()).toBeNull()
    const cleared = setCookie(response, sessionCookieName())
    expect(cleared && isExpired(cleared)).toBe(true)
    expect(token).toBe(jar.get(sessionCookieName()))
  })

  test("a token read under one cookie is no session under another (another salt)", async () => {
    const { config, jar, token } = await signedIn()
    expect((await sessionOf(await Auth(get("/auth/session", { jar }), config))).user).toBeTruthy()

    const response = await Auth(
      get("/auth/session", {
        origin: HTTPS_ORIGIN,
        headers: { cookie: `${sessionCookieName(HTTPS_ORIGIN)}=${token}` },
      }),
      config,
    )
    expect(await response.json()).toBeNull()
  })

  test("another configuration's secret never reads it", async () => {
    const { config, jar, token } = await signedIn()
    expect((await sessionOf(await Auth(get("/auth/session", { jar }), config))).user).toBeTruthy()

    const { config: other } = makeConfig({ secret: OTHER_SECRET })
    const response = await Auth(
      get("/auth/session", { headers: { cookie: `${sessionCookieName()}=${token}` } }),
      other,
    )
    expect(await response.json()).toBeNull()
  })

  test("a callback changing the claims it is handed does not change the kept ones", async () => {
    const seen: unknown[] = []
    const { config, token: original } = await signedIn({
      callbacks: {
        jwt({ token, trigger }) {
          if (trigger) return token // the sign-in: the token as made
          seen.push({ ...token })
          // A callback changing the token it is handed on a read.
          token.email = "someone-else@example.com"
          token.role = "admin"
          return token
        },
      },
    })
    // The same cookie each time, as a browser that has not stored the re-issued one yet sends it.
    const cookie = `${sessionCookieName()}=${original}`
    for (let i = 0; i < 3; i++) await Auth(get("/auth/session", { headers: { cookie } }), config)
    expect(seen.length).toBeGreaterThanOrEqual(3)
    for (const token of seen.slice(-2)) {
      expect(token).not.toHaveProperty("role")
      expect(token).toHaveProperty("email", "ada@example.com")
    }
  })

  test("a tampered copy of a token that was read is refused", async () => {
    const { config, jar, token } = await signedIn()
    expect((await sessionOf(await Auth(get("/auth/session", { jar }), config))).user).toBeTruthy()

    const parts = token.split(".")
    const tag = parts[4]!
    parts[4] = `${tag.slice(0, -2)}${tag.endsWith("AA") ? "AB" : "AA"}`
    const response = await Auth(
      get("/auth/session", { headers: { cookie: `${sessionCookieName()}=${parts.join(".")}` } }),
      config,
    )
    expect(await response.json()).toBeNull()
  })
})
