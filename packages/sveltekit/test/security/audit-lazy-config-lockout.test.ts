/**
 * #13: "the default in-memory store must still work when a framework builds a
 * new config object per request (SvelteKit's lazy form)". Core has that test
 * with hand-made config objects; this is the attack through the SvelteKit hook
 * itself: `SvelteKitAuth(async (event) => config)` builds a configuration per
 * request, and an attacker guessing a password through `handle` must still be
 * locked out, the right password included, with no `rateLimit` configured.
 */
import { randomBytes } from "node:crypto"
import { afterEach, describe, expect, it } from "vitest"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { Browser, createEvent, formRequest, runHandle } from "../helpers/kit.js"

afterEach(() => setKitRuntime())

const SESSION = "tessera.session-token"

describe("credentials lockout with the lazy configuration form", () => {
  it("holds across the per-request configuration objects, against the right password too", async () => {
    useKitRuntime({ NODE_ENV: "production" })
    // A secret of this test's own: the default store is shared by the process, its keys are HMACs.
    const secret = randomBytes(32).toString("hex")
    let built = 0
    const { handle } = SvelteKitAuth(async () => {
      built++
      return testConfig({ secret })
    })

    const attempt = async (password: string) => {
      const browser = new Browser()
      const csrf = await runHandle(handle, createEvent(browser.request(`${ORIGIN}/auth/csrf`)))
      browser.receiveResponse(csrf.response)
      const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }
      const fields = { username: "ada", password, csrfToken }
      const post = formRequest(`${ORIGIN}/auth/callback/credentials`, fields)
      const withCookies = browser.request(post.url, {
        method: "POST",
        headers: post.headers,
        body: new URLSearchParams(fields),
      })
      const { response } = await runHandle(handle, createEvent(withCookies))
      browser.receiveResponse(response)
      return { location: response.headers.get("location"), signedIn: browser.cookies.has(SESSION) }
    }

    for (let i = 0; i < 10; i++) {
      const wrong = await attempt(`guess ${i}`)
      expect(wrong.location).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
    }
    const locked = await attempt("lovelace")
    expect(locked.location).toBe(`${ORIGIN}/auth/signin?error=RateLimited`)
    expect(locked.signedIn).toBe(false)
    // Each request had a configuration object of its own.
    expect(built).toBeGreaterThanOrEqual(22)
  })
})
