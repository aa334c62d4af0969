/**
 * The built-in pages send `Cross-Origin-Opener-Policy: same-origin`: a site that opens the
 * sign-in page (or any built-in page) with `window.open` keeps no handle on it. Without it the
 * opener could watch the page (`closed`, `frames.length`, `location` changes through the
 * sign-in), navigate it elsewhere mid sign-in (a look-alike page in the same window), or count
 * its frames: cross-window leaks and tabnabbing that `frame-ancestors` does not cover, since
 * nothing is framed.
 *
 * Through `Auth()` for every page, and in Chromium: a page on another origin opens the sign-in
 * page and loses its handle on it; the page loses `window.opener`.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import Passkey from "@tessera/core/providers/passkey"
import { MemoryAdapter } from "@tessera/testing"
import { hasChromium, launchChromium } from "../harness/chromium.js"
import { serveAuth, type AuthServer } from "../harness/http-server.js"
import { credentialsProvider, get, oauthProvider, SECRET } from "../harness/index.js"

function appConfig(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [
      oauthProvider(),
      Email({ sendVerificationRequest: () => {}, confirmLink: true }),
      Passkey(),
      credentialsProvider(),
    ],
  }
}

test("every built-in page: Cross-Origin-Opener-Policy same-origin", async () => {
  const config = appConfig()
  for (const path of [
    "/auth/signin",
    "/auth/signin?error=OAuthSignin",
    "/auth/signout",
    "/auth/error",
    "/auth/error?error=Verification",
    "/auth/verify-request?provider=email",
    `/auth/callback/email?token=${"a".repeat(64)}&email=ada%40example.com`,
  ]) {
    const response = await Auth(get(path), config)
    expect(response.headers.get("content-type"), path).toMatch(/^text\/html/)
    expect(response.headers.get("cross-origin-opener-policy"), path).toBe("same-origin")
  }
})

describe.skipIf(!hasChromium)("in Chromium", () => {
  let server: AuthServer
  let browser: Browser
  let context: BrowserContext

  beforeAll(async () => {
    server = await serveAuth(appConfig, { localhost: true, home: true })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  test("a page on another origin that opens the sign-in page keeps no handle on it", async () => {
    context = await browser.newContext()
    try {
      // The attacker's page: another origin (127.0.0.1, not localhost) on the same server.
      const attacker: Page = await context.newPage()
      await attacker.goto(server.origin.replace("//localhost:", "//127.0.0.1:") + "/")
      const signinUrl = `${server.origin}/auth/signin`
      const opened = context.waitForEvent("page")
      await attacker.evaluate((url) => {
        ;(window as any).victim = window.open(url, "_blank")
      }, signinUrl)
      const popup = await opened
      await popup.waitForLoadState("load")
      expect(popup.url()).toBe(signinUrl)
      // The sign-in page is live in its window, and has no opener to talk to.
      expect(await popup.locator("form").count()).toBeGreaterThan(0)
      expect(await popup.evaluate(() => window.opener === null)).toBe(true)
      // The opener's handle reads as closed: it can neither watch nor navigate the page.
      expect(await attacker.evaluate(() => (window as any).victim.closed)).toBe(true)
    } finally {
      await context.close()
    }
  })
})
