/**
 * Login CSRF through the form actions from a same-site page that is not the
 * app: another app on the same host under another port (`localhost:5174`
 * against `localhost:5173`), a sibling subdomain with user content. Browsers
 * mark such a submission `Sec-Fetch-Site: same-site`, and with SvelteKit's
 * origin check off the actions used to take that word over the `Origin` that
 * named the other page. The actions run core without its CSRF token, so they
 * must refuse at least what core's own routes refuse: core answers the same
 * post to `/auth/callback/credentials` with `MissingCSRF` (`Origin` not the
 * app's), token or not. A same-site `Origin` other than the app's is now a 403.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { Auth } from "@tessera/core"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { actionOutcome as outcome, createEvent, formRequest, signOutFrom } from "../helpers/kit.js"

const SESSION = "tessera.session-token"
const ADA = { providerId: "credentials", username: "ada", password: "lovelace", redirectTo: "/" }
/** Another app on the same host: same site, another origin. */
const SIBLING = { origin: "http://localhost:5174", "sec-fetch-site": "same-site" }

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => setKitRuntime())

describe("a same-site page that is not the app", () => {
  it("core's own credentials route refuses its post (the bar the actions must meet)", async () => {
    const response = await Auth(
      formRequest(`${ORIGIN}/auth/callback/credentials`, { ...ADA, csrfToken: "x" }, SIBLING),
      testConfig(),
    )
    expect(response.status).toBeGreaterThanOrEqual(300)
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION}=ey`))).toBe(false)
  })

  it("signing in through the action is refused: 403, no session", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = createEvent(formRequest(`${ORIGIN}/signin`, ADA, SIBLING))
    expect(await outcome(signIn, event)).toEqual({ error: 403 })
    expect(event.cookies.latest(SESSION)).toBeUndefined()
  })

  it("signing out through the action is refused: the session stays", async () => {
    const { outcome: signOut, event } = await signOutFrom(SvelteKitAuth(testConfig()), ADA, SIBLING)
    expect(signOut).toEqual({ error: 403 })
    expect(event.cookies.latest(SESSION)).toBeUndefined()
  })

  it("the app's own page, marked same-origin or same-site, still signs in", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    for (const site of ["same-origin", "same-site"]) {
      const headers = { origin: ORIGIN, "sec-fetch-site": site }
      const event = createEvent(formRequest(`${ORIGIN}/signin`, ADA, headers))
      expect(await outcome(signIn, event)).toEqual({ redirect: 303 })
      expect(event.cookies.latest(SESSION)?.value).toMatch(/^ey/)
    }
  })
})
