/**
 * Red team, round 14: the `session` route answers JSON, whatever the app's
 * `session` callback returns. Auth.js serialises the callback's answer as
 * `application/json` (its `toResponse`); Tessera served a string answer as it
 * was, as `text/html` on the auth origin, with none of the built-in pages'
 * headers (no CSP): markup in the string (a display name, say) ran as a page
 * at `/auth/session`, a URL any site can send a victim to.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { Browser } from "playwright-core"
import { Auth, raw, type AuthConfig } from "@tessera/core"
import { hasChromium, launchChromium } from "../harness/chromium.js"
import { serveAuth, type AuthServer } from "../harness/http-server.js"
import {
  credentialsProvider,
  csrfToken,
  get,
  type Jar,
  makeConfig,
  post,
  signIn,
} from "../harness/index.js"

const MARKUP = `<script>alert(document.cookie)</script>`

/** An app whose `session` callback answers a string (its user's display name, say). */
function stringSessionConfig() {
  return makeConfig({
    callbacks: { session: ({ session }: any) => `${MARKUP}${session.user?.name}` as any },
  })
}

describe("a session callback that answers a string", () => {
  test("GET session: application/json, the string JSON-encoded, never HTML", async () => {
    const { config } = stringSessionConfig()
    const { jar } = await signIn(config)
    const response = await Auth(get("/auth/session", { jar }), config)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(await response.json()).toBe(`${MARKUP}Ada Lovelace`)
  })

  test("POST session (update): application/json too", async () => {
    const { config } = stringSessionConfig()
    const { jar } = await signIn(config)
    const { token } = await csrfToken(config, jar)
    const response = await Auth(post("/auth/session", { csrfToken: token }, { jar }), config)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(await response.json()).toBe(`${MARKUP}Ada Lovelace`)
  })

  test("raw mode: the result names JSON, so an integration serialises it as Auth.js's does", async () => {
    const { config } = stringSessionConfig()
    const { jar } = await signIn(config)
    const result = await Auth(get("/auth/session", { jar }), { ...config, raw })
    const type = new Headers(result.headers as HeadersInit).get("content-type")
    expect(type).toMatch(/^application\/json/)
    expect(result.body).toBe(`${MARKUP}Ada Lovelace`)
  })
})

test("an object session still answers as before", async () => {
  const { config } = makeConfig()
  const { jar } = await signIn(config)
  const response = await Auth(get("/auth/session", { jar }), config)
  expect(response.headers.get("content-type")).toMatch(/^application\/json/)
  expect((await response.json()).user.name).toBe("Ada Lovelace")
})

describe.skipIf(!hasChromium)("in Chromium", () => {
  let server: AuthServer
  let browser: Browser
  let config: AuthConfig

  beforeAll(async () => {
    // A display name the user chose, returned as it is by the app's session callback.
    config = makeConfig({
      callbacks: { session: ({ session }: any) => session.user?.name as any },
      providers: [],
    }).config
    server = await serveAuth(() => config)
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  test("a link to /auth/session runs no markup from the session", async () => {
    config.providers = [
      credentialsProvider({
        authorize: () => ({ id: "u1", name: `<img src=x onerror="window.__pwned=1">` }),
      }),
    ]
    const { jar } = await signIn(
      config,
      { username: "x", password: "y" },
      { origin: server.origin },
    )
    const context = await browser.newContext()
    await context.addCookies(
      [...(jar as Jar).entries()].map(([name, value]) => ({ name, value, url: server.origin })),
    )
    const page = await context.newPage()
    const response = await page.goto(`${server.origin}/auth/session`)
    // Let an injected image fail and its handler run: a real round trip, no timer.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)))
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(await page.evaluate(() => document.images.length)).toBe(0)
    expect(response?.headers()["content-type"]).toMatch(/^application\/json/)
    await context.close()
  })
})
