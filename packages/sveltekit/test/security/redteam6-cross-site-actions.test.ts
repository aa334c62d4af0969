/**
 * Login CSRF through the form actions of an app that turned SvelteKit's
 * origin check off (`kit.csrf.checkOrigin: false`, say to take form posts
 * from another site on other routes).
 *
 * The `signIn` and `signOut` actions run core without its CSRF token (SvelteKit's
 * origin check is the form actions' CSRF protection, as in Auth.js). With that
 * check off, an attacker's page could auto-submit the credentials form to the
 * app, and the victim's browser would come back signed in to the attacker's
 * account (whatever the victim then saves lands there), or be signed out at
 * will. Browsers say where a request comes from (`Sec-Fetch-Site`): a
 * cross-site submission is refused with 403 before anything is signed in or
 * out. Requests without the header (older browsers, server code) work as
 * before; a same-site page that is not the app is refused since round 17
 * (redteam17-same-site-actions.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { actionOutcome as outcome, createEvent, formRequest, signOutFrom } from "../helpers/kit.js"

const SESSION = "tessera.session-token"
const ADA = { providerId: "credentials", username: "ada", password: "lovelace", redirectTo: "/" }

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => setKitRuntime())

const crossSite = { origin: "https://attacker.example", "sec-fetch-site": "cross-site" }

describe("signIn", () => {
  it("a cross-site submission of the credentials form is refused: 403, no session", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = createEvent(formRequest(`${ORIGIN}/signin`, ADA, crossSite))
    expect(await outcome(signIn, event)).toEqual({ error: 403 })
    expect(event.cookies.latest(SESSION)).toBeUndefined()
  })

  it.each([
    ["same-origin", { "sec-fetch-site": "same-origin" }],
    ["none (typed or bookmarked)", { "sec-fetch-site": "none" }],
    ["without Sec-Fetch-Site (older browsers, server code)", {}],
  ])("%s still signs in", async (_name, headers) => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = createEvent(formRequest(`${ORIGIN}/signin`, ADA, headers))
    expect(await outcome(signIn, event)).toEqual({ redirect: 303 })
    expect(event.cookies.latest(SESSION)?.value).toMatch(/^ey/)
  })
})

describe("signOut", () => {
  it("a cross-site submission is refused: 403, the session stays", async () => {
    const { outcome: signOut, event } = await signOutFrom(
      SvelteKitAuth(testConfig()),
      ADA,
      crossSite,
    )
    expect(signOut).toEqual({ error: 403 })
    expect(event.cookies.latest(SESSION)).toBeUndefined()
  })
})

/**
 * `kit.csrf.trustedOrigins` lets another origin's form posts past SvelteKit's check (meant for a
 * provider posting its callback to `/auth/callback/...`). The actions cannot read svelte.config,
 * and take no list of their own on purpose: a page on another origin that may submit the
 * sign-in form is the login CSRF this guards against, trusted or not (its own XSS, a user
 * account there). Such a page links to the app's sign-in page instead (docs/sveltekit.md).
 */
describe("an origin svelte.config trusts (kit.csrf.trustedOrigins)", () => {
  const partner = "https://partner.example"
  it.each([
    ["marked cross-site", { origin: partner, "sec-fetch-site": "cross-site" }],
    ["from a browser without Sec-Fetch-Site", { origin: partner }],
  ])("%s: signing in is refused (403, no session)", async (_name, headers) => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = createEvent(formRequest(`${ORIGIN}/signin`, ADA, headers))
    expect(await outcome(signIn, event)).toEqual({ error: 403 })
    expect(event.cookies.latest(SESSION)).toBeUndefined()
  })

  it("signing out is refused too: the session stays", async () => {
    const { outcome: signOut, event } = await signOutFrom(SvelteKitAuth(testConfig()), ADA, {
      origin: partner,
    })
    expect(signOut).toEqual({ error: 403 })
    expect(event.cookies.latest(SESSION)).toBeUndefined()
  })
})
