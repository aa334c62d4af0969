/**
 * Login CSRF through the form actions of an app that turned SvelteKit's
 * origin check off, from a browser that sends no `Sec-Fetch-Site` (Safari
 * before 16.4). Round 6 refused what the browser marks cross-site; such a
 * browser marks nothing, but it does send `Origin` with every POST. Without
 * `Sec-Fetch-Site`, an `Origin` other than the app's (or the opaque `null` of a
 * sandboxed frame) is refused: 403, nothing signed in or out. A request with
 * neither header (server code) still works.
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

describe("a browser without Sec-Fetch-Site", () => {
  it.each([
    ["another site's page", "https://attacker.example"],
    ["a sandboxed frame (opaque origin)", "null"],
  ])("signing in from %s is refused: 403, no session", async (_name, origin) => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = createEvent(formRequest(`${ORIGIN}/signin`, ADA, { origin }))
    expect(await outcome(signIn, event)).toEqual({ error: 403 })
    expect(event.cookies.latest(SESSION)).toBeUndefined()
  })

  it("signing out from another site's page is refused: the session stays", async () => {
    const { outcome: signOut, event } = await signOutFrom(SvelteKitAuth(testConfig()), ADA, {
      origin: "https://attacker.example",
    })
    expect(signOut).toEqual({ error: 403 })
    expect(event.cookies.latest(SESSION)).toBeUndefined()
  })

  it("the app's own page still signs in", async () => {
    const { signIn } = SvelteKitAuth(testConfig())
    const event = createEvent(formRequest(`${ORIGIN}/signin`, ADA, { origin: ORIGIN }))
    expect(await outcome(signIn, event)).toEqual({ redirect: 303 })
    expect(event.cookies.latest(SESSION)?.value).toMatch(/^ey/)
  })
})
