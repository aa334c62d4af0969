/**
 * Found by differential testing against `@auth/core` 0.41.3 (the same configuration and
 * requests sent to both libraries' `Auth()`, the Set-Cookie attributes compared): an app's own
 * `cookies.sessionToken.options.maxAge` (a session cookie that a browser drops after an hour
 * while the session itself may last 30 days, say) is honoured by Auth.js, which writes its
 * options as given and adds `Expires`; Tessera wrote its own `Max-Age` (the session's remaining
 * life) over it, so the cookie outlived what the app asked for. Auth.js also sets the session
 * cookie on every read, so that `maxAge` is an idle timeout there. The app's `maxAge` now bounds
 * the cookie, and a session read sets the cookie again (same value, no write, no encrypt) when
 * the app set one; it never lengthens the cookie past the session's expiry (a cookie that
 * outlives its token only carries a token that is refused).
 */
import { describe, expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import {
  csrfToken,
  get,
  makeConfig,
  post,
  setCookie,
  sessionCookieName,
  signIn,
} from "../harness/index.js"

const HOUR = 3600

function sessionCookieOf(response: Response) {
  const cookie = setCookie(response, sessionCookieName())
  expect(cookie, "a session cookie").toBeDefined()
  return cookie!
}

function lifetimeOf(cookie: ReturnType<typeof sessionCookieOf>) {
  const maxAge = Number(cookie.attributes["max-age"])
  const expiresIn = (Date.parse(String(cookie.attributes.expires)) - Date.now()) / 1000
  return { maxAge, expiresIn }
}

describe("cookies.sessionToken.options.maxAge (Auth.js writes the app's options as given)", () => {
  for (const strategy of ["jwt", "database"] as const) {
    test(`${strategy} sessions: the app's shorter maxAge bounds the cookie, at sign-in and on update`, async () => {
      const { config } = makeConfig({
        session: { strategy },
        ...(strategy === "database" ? { adapter: MemoryAdapter() } : {}),
        cookies: { sessionToken: { options: { maxAge: HOUR } } },
      })
      const { response, jar } = await signIn(config)
      const atSignIn = lifetimeOf(sessionCookieOf(response))
      expect(atSignIn.maxAge).toBe(HOUR)
      expect(atSignIn.expiresIn).toBeGreaterThan(HOUR - 60)
      expect(atSignIn.expiresIn).toBeLessThanOrEqual(HOUR + 1)

      // A session read sets the cookie again, its life started again (an idle timeout, as in
      // Auth.js, which sets the session cookie on every read).
      const read = await Auth(get("/auth/session", { jar }), config)
      expect(await read.json()).toMatchObject({ user: { name: "Ada Lovelace" } })
      expect(lifetimeOf(sessionCookieOf(read)).maxAge).toBe(HOUR)
      expect(sessionCookieOf(read).value).toBe(jar.get(sessionCookieName()))

      const { token } = await csrfToken(config, jar)
      const updated = await Auth(
        post(
          "/auth/session",
          { csrfToken: token, data: { name: "Countess" } },
          { jar, json: true },
        ),
        config,
      )
      expect(updated.status).toBe(200)
      const cookie = setCookie(updated, sessionCookieName())
      if (cookie) expect(lifetimeOf(cookie).maxAge).toBe(HOUR)
    })
  }

  test("a longer maxAge does not outlive the session", async () => {
    const { config } = makeConfig({
      session: { maxAge: HOUR },
      cookies: { sessionToken: { options: { maxAge: 100 * 24 * HOUR } } },
    })
    const { response } = await signIn(config)
    expect(lifetimeOf(sessionCookieOf(response)).maxAge).toBe(HOUR)
  })

  test("without it, the cookie lives as long as the session (unchanged)", async () => {
    const { config } = makeConfig({ session: { maxAge: 2 * HOUR } })
    const { response } = await signIn(config)
    expect(lifetimeOf(sessionCookieOf(response)).maxAge).toBe(2 * HOUR)
  })
})
