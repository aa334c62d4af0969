/**
 * Back-channel logout through the built demo (`npm start`, SvelteKit in production
 * mode): the Local IdP ends a session at its end, and POSTs a `logout_token` to
 * `/auth/backchannel-logout/local-idp` as the spec says, a form with no `Origin`
 * (server to server). SvelteKit refuses such a form POST before any hook runs
 * ("Cross-site POST form submissions are forbidden"), so the session it names must
 * still reach Tessera and end.
 */
import { expect, test } from "vitest"
import { HttpBrowser, completeOidcLogin, completeOidcLogout } from "@tessera/testing"
import { useDemo } from "./demo-server"

const demo = useDemo()

test("signing out at the Local IdP ends the demo session (back-channel logout)", async () => {
  const origin = demo.server.url
  const browser = new HttpBrowser(origin, "/auth", { origin })
  const start = await browser.startSignIn("local-idp", { callbackUrl: `${origin}/account` })
  expect(start.status).toBe(302)
  const authorizationUrl = start.headers.get("location")!
  const idpJar = new Map<string, string>()
  const callback = await completeOidcLogin(authorizationUrl, { accountId: "henry", jar: idpJar })
  await browser.request(callback.url, {
    method: callback.method,
    ...(callback.body ? { form: Object.fromEntries(callback.body) } : {}),
  })
  expect((await browser.session())?.user?.name).toBe("Henry")

  // Henry signs out at the provider itself (another app, or its own page).
  await completeOidcLogout(`${new URL(authorizationUrl).origin}/session/end`, { jar: idpJar })
  expect(await browser.session()).toBeNull()
}, 60_000)

// Why the demo's server.js gives that one path the app's origin: @sveltejs/kit 2.x counts a form
// POST with no `Origin` as cross-site and refuses it before any hook runs. Any other path of the
// same built app shows it (server.js adds nothing there). Should SvelteKit ever let such posts
// through, this fails, and docs/sveltekit.md's workaround for back-channel logout can go.
test("SvelteKit itself refuses a form POST with no Origin (why server.js adds one for back-channel logout)", async () => {
  for (const path of ["/auth/backchannel-logout-elsewhere", "/signin"]) {
    const response = await fetch(`${demo.server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ logout_token: "e30.e30.c2ln" }),
    })
    expect(response.status).toBe(403)
    expect(await response.text()).toBe("Cross-site POST form submissions are forbidden")
  }
})

test("the route still refuses a forged logout token (400, not SvelteKit's 403)", async () => {
  const response = await fetch(`${demo.server.url}/auth/backchannel-logout/local-idp`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ logout_token: "e30.e30.c2ln" }),
  })
  expect(response.status).toBe(400)
  expect(await response.json()).toMatchObject({ error: "invalid_request" })
})
