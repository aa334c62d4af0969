/**
 * Found by bench/compat-diff.mjs ("custom pages with a query string, on another origin;
 * callbackUrl remembered for them"): `GET /auth/signin?callbackUrl=/x` with a custom
 * `pages.signIn` redirects to that page, and Auth.js remembers `/x` in the callback-url cookie
 * on the way (it does so for every request that names a callbackUrl). A custom page's own form
 * that posts no `callbackUrl` then lands on `/x` with Auth.js; Tessera remembered it only when
 * it showed its built-in page, so the user landed on `/`. (A sign-out without `callbackUrl`
 * goes to the app's origin on purpose: docs/migrating-from-authjs.md; a custom sign-out page is
 * given the `callbackUrl` in its query to post.)
 */
import { expect, test } from "vitest"
import { Auth } from "@tessera/core"
import { ORIGIN, csrfToken, get, makeConfig, post } from "../harness/index.js"

const config = () => makeConfig({ pages: { signIn: "/login", signOut: "/logout" } }).config

test("a custom sign-in page's form without callbackUrl lands where signin was asked to go", async () => {
  const cfg = config()
  const { token, jar } = await csrfToken(cfg)
  const page = await Auth(get("/auth/signin?callbackUrl=%2Fdashboard", { jar }), cfg)
  expect(page.status).toBe(302)
  expect(new URL(page.headers.get("location")!).pathname).toBe("/login")
  jar.update(page)
  const signedIn = await Auth(
    post(
      "/auth/callback/credentials",
      { csrfToken: token, username: "ada", password: "correct horse" },
      { jar },
    ),
    cfg,
  )
  expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
})

test("a custom sign-out page is given the callbackUrl to post", async () => {
  const cfg = config()
  const page = await Auth(get("/auth/signout?callbackUrl=%2Fbye"), cfg)
  expect(page.status).toBe(302)
  const location = new URL(page.headers.get("location")!)
  expect(location.pathname).toBe("/logout")
  expect(location.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/bye`)
})

test("a callbackUrl the redirect callback refuses is not remembered", async () => {
  const cfg = config()
  const { token, jar } = await csrfToken(cfg)
  jar.update(
    await Auth(get("/auth/signin?callbackUrl=https%3A%2F%2Fevil.example%2F", { jar }), cfg),
  )
  const signedIn = await Auth(
    post(
      "/auth/callback/credentials",
      { csrfToken: token, username: "ada", password: "correct horse" },
      { jar },
    ),
    cfg,
  )
  expect(new URL(signedIn.headers.get("location")!).origin).toBe(ORIGIN)
})
