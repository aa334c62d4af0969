/**
 * Red team 14 (holds): where the `signIn` and `signOut` form actions send the
 * browser. The destination comes from the form (`redirectTo`, `callbackUrl`),
 * the action's query or the page it was posted from (`Referer`); whichever it
 * is, and signed in or not, redirecting or answering `{ url }`
 * (`redirect=false`), it stays on the app's origin: protocol-relative paths,
 * backslashes, encoded slashes, tabs and newlines a browser strips,
 * `javascript:`, userinfo and other origins all end on the app.
 */
import { isRedirect } from "@sveltejs/kit"
import { afterEach, beforeEach, expect, it } from "vitest"
import { SvelteKitAuth } from "../../src/index.js"
import { setKitRuntime } from "../../src/env.js"
import { ORIGIN, testConfig, useKitRuntime } from "../helpers/config.js"
import { Browser, createEvent, formRequest, type TestEvent } from "../helpers/kit.js"

beforeEach(() => useKitRuntime({ NODE_ENV: "production" }))
afterEach(() => setKitRuntime())

const HOSTILE = [
  "//evil.example/x",
  "/\\evil.example/x",
  "/%2F%2Fevil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  " //evil.example",
  "\u0000//evil.example",
  "javascript:alert(1)",
  "https://evil.example/x",
  "https:evil.example",
  `${ORIGIN}@evil.example/`,
]

const ADA = { providerId: "credentials", username: "ada", password: "lovelace" }

/** Where the action sent the browser: its redirect's Location, or the `url` it answered. */
async function destination(action: (event: TestEvent) => unknown, event: TestEvent) {
  try {
    return ((await action(event)) as { url?: string } | undefined)?.url
  } catch (thrown) {
    if (isRedirect(thrown)) return thrown.location
    throw thrown
  }
}

function expectOnOrigin(location: string | undefined) {
  expect(location).toBeDefined()
  const url = new URL(location!, ORIGIN)
  expect(url.origin).toBe(ORIGIN)
  expect(url.username + url.password).toBe("")
}

async function signedInBrowser(): Promise<Browser> {
  const { signIn } = SvelteKitAuth(testConfig())
  const event = createEvent(formRequest(`${ORIGIN}/signin`, ADA))
  await destination(signIn, event)
  const browser = new Browser()
  browser.receiveEvent(event)
  return browser
}

it.each(HOSTILE)("signIn with credentials, redirectTo %j: on the app's origin", async (to) => {
  const { signIn } = SvelteKitAuth(testConfig())
  for (const field of ["redirectTo", "callbackUrl"]) {
    const event = createEvent(formRequest(`${ORIGIN}/signin`, { ...ADA, [field]: to }))
    expectOnOrigin(await destination(signIn, event))
    expect(event.cookies.latest("tessera.session-token")?.value).toMatch(/^ey/)
  }
})

it.each(HOSTILE)("signIn with no provider (to the sign-in page), redirectTo %j", async (to) => {
  const { signIn } = SvelteKitAuth(testConfig())
  expectOnOrigin(
    await destination(signIn, createEvent(formRequest(`${ORIGIN}/signin`, { redirectTo: to }))),
  )
})

it.each(HOSTILE)("signIn, redirectTo %j from the action's query or the page's", async (to) => {
  const { signIn } = SvelteKitAuth(testConfig())
  const query = `?redirectTo=${encodeURIComponent(to)}`
  expectOnOrigin(
    await destination(signIn, createEvent(formRequest(`${ORIGIN}/signin${query}`, ADA))),
  )
  const fromPage = formRequest(`${ORIGIN}/signin`, ADA, { referer: `${ORIGIN}/signin${query}` })
  expectOnOrigin(await destination(signIn, createEvent(fromPage)))
})

it("signIn posted from another site's page (Referer) stays on the app", async () => {
  const { signIn } = SvelteKitAuth(testConfig())
  const event = createEvent(
    formRequest(`${ORIGIN}/signin`, ADA, { referer: "https://evil.example/?redirectTo=/x" }),
  )
  expectOnOrigin(await destination(signIn, event))
})

it.each(HOSTILE)("signOut, redirectTo %j: signed in or not, redirect or not", async (to) => {
  const { signOut } = SvelteKitAuth(testConfig())
  const browser = await signedInBrowser()
  for (const redirect of [undefined, "false"]) {
    const fields = { redirectTo: to, ...(redirect ? { redirect } : {}) }
    const anonymous = createEvent(formRequest(`${ORIGIN}/signout`, fields))
    expectOnOrigin(await destination(signOut, anonymous))
    const signedIn = createEvent(
      browser.request(`${ORIGIN}/signout`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
        body: new URLSearchParams(fields),
      }),
    )
    expectOnOrigin(await destination(signOut, signedIn))
  }
})
