/**
 * Red team 8, chaining the SvelteKit `signIn` form action with core's own
 * routes that `handle` serves: the same secret (a password) can be tried
 * through either, and the action runs core with a configuration of its own
 * (raw results, no CSRF token). A guesser switching between the two must not
 * get a count per path: the credentials lockout is one count per identifier,
 * whichever path the guesses took, and the right password is refused through
 * both while it holds. (Safe when tested: pinned.)
 */
import { isRedirect } from "@sveltejs/kit"
import { afterEach, beforeEach, expect, test } from "vitest"
import { RateLimited, SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { Browser, createEvent, formRequest, runHandle } from "../helpers/kit.js"

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => setKitRuntime())

test("credentials: one lockout for the signIn action and the HTTP route, whichever path the guesses took", async () => {
  // A secret of its own: the default rate-limit store is shared by the whole process.
  const config = testConfig({ secret: `rt8-chains-${crypto.randomUUID()}` })
  const { handle, signIn } = SvelteKitAuth(config)

  /** The signIn form action: what it threw (a redirect on success). */
  const viaAction = async (password: string) => {
    const event = createEvent(
      formRequest(`${ORIGIN}/signin`, { providerId: "credentials", username: "ada", password }),
    )
    try {
      await signIn(event)
    } catch (thrown) {
      return { thrown, signedIn: event.cookies.setCookieHeaders().some(isSessionCookie) }
    }
    throw new Error("the action neither redirected nor threw")
  }
  /** POST /auth/callback/credentials through `handle`, as a browser does. */
  const viaRoute = async (password: string) => {
    const browser = new Browser()
    const csrf = await runHandle(handle, createEvent(browser.request(`${ORIGIN}/auth/csrf`)))
    browser.receiveResponse(csrf.response)
    const { csrfToken } = (await csrf.response.json()) as { csrfToken: string }
    const { response } = await runHandle(
      handle,
      createEvent(
        browser.request(`${ORIGIN}/auth/callback/credentials`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
          body: new URLSearchParams({ username: "ada", password, csrfToken }),
        }),
      ),
    )
    return { response, signedIn: response.headers.getSetCookie().some(isSessionCookie) }
  }

  // Five wrong guesses through each path: ten for the identifier, the limit.
  for (let i = 0; i < 5; i++) {
    const { thrown } = await viaAction(`wrong-${i}`)
    expect(thrown).not.toBeInstanceOf(RateLimited)
    expect(isRedirect(thrown)).toBe(false)
  }
  for (let i = 0; i < 5; i++) {
    const { response, signedIn } = await viaRoute(`wrong-${i}`)
    expect(response.headers.get("location")).toContain("error=CredentialsSignin")
    expect(signedIn).toBe(false)
  }
  // The right password: refused through both paths while the lock holds.
  const action = await viaAction("lovelace")
  expect(action.thrown).toBeInstanceOf(RateLimited)
  expect(action.signedIn).toBe(false)
  const route = await viaRoute("lovelace")
  expect(route.signedIn).toBe(false)
  expect(route.response.headers.get("location") ?? String(route.response.status)).toMatch(
    /RateLimited|429/,
  )
})

function isSessionCookie(line: string): boolean {
  return /^(__Secure-)?tessera\.session-token(\.\d+)?=[^;]/.test(line)
}
