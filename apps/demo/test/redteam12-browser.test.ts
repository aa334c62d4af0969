/**
 * Red team, round 12: the built demo attacked from a real Chromium, with a
 * second origin serving the attacker's pages. That origin is
 * `http://localhost:<another port>`: same-site with the demo (a site ignores
 * the port), the strongest position short of the demo's own origin, the one a
 * sibling subdomain holds in production: the browser sends the demo's
 * `SameSite=Lax` cookies with its frames and lets it plant cookies.
 *
 * One demo server, one browser, one attacker server for the whole file.
 */
import { existsSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { generateHOTP } from "@oslojs/otp"
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { useDemo } from "./demo-server"

const CHROMIUM = "/usr/bin/chromium"
const hasChromium = existsSync(CHROMIUM)
const demo = useDemo()

/** The attacker's site: pages registered by path, served as HTML. */
interface Attacker {
  url: string
  /** Serves `html` at `path` (replacing what was there). */
  page(path: string, html: string): string
}

let browser: Browser
let attacker: Attacker
let attackerServer: Server

beforeAll(async () => {
  const pages = new Map<string, string>()
  attackerServer = createServer((req, res) => {
    const html = pages.get(new URL(req.url ?? "/", "http://x").pathname)
    if (html === undefined) return void res.writeHead(404).end()
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html)
  })
  await new Promise<void>((resolve) => attackerServer.listen(0, "127.0.0.1", resolve))
  const url = `http://localhost:${(attackerServer.address() as AddressInfo).port}`
  attacker = {
    url,
    page(path, html) {
      pages.set(path, html)
      return url + path
    },
  }
  if (!hasChromium) return
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  })
})

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => attackerServer?.close(resolve))
})

/** A fresh browser profile; every dialog (an injected `alert`) is recorded. */
async function withContext<T>(
  run: (page: Page, context: BrowserContext, dialogs: string[]) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({ baseURL: demo.server.url })
  context.setDefaultTimeout(10_000)
  const dialogs: string[] = []
  context.on("page", (page) =>
    page.on("dialog", (dialog) => {
      dialogs.push(`${page.url()}: ${dialog.message()}`)
      void dialog.dismiss()
    }),
  )
  try {
    return await run(await context.newPage(), context, dialogs)
  } finally {
    await context.close()
  }
}

/** The session the context's cookies give, as the demo's `/auth/session` answers it. */
async function sessionOf(context: BrowserContext): Promise<{ user?: { email?: string } } | null> {
  const response = await context.request.get(`${demo.server.url}/auth/session`)
  return response.json()
}

async function signInWithPassword(page: Page, email: string, password: string, next = "/account") {
  await page.goto(`/signin?redirectTo=${encodeURIComponent(next)}`)
  await page.locator("button:enabled", { hasText: "Sign in with a passkey" }).waitFor()
  await page.fill("#credentials-email", email)
  await page.fill("#credentials-password", password)
  await page
    .locator("form.signInButton:has(input[name=providerId][value=credentials])")
    .getByRole("button", { name: "Sign in" })
    .click()
  await page.waitForURL((url) => url.pathname === next)
}

/** oidc-provider's development login and consent pages. */
async function loginAtLocalIdp(page: Page, login: string) {
  await page.waitForURL((url) => url.hostname === "127.0.0.1")
  await page.fill("input[name=login]", login)
  await page.fill("input[name=password]", "any password")
  await page.locator("button[type=submit]").click()
  await page.locator("button[type=submit]").click()
}

/** An attacker page that posts `fields` to `action` on load. */
function autoPost(action: string, fields: Record<string, string>, enctype?: string): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join("")
  return `<!doctype html><form method="post" action="${action}"${
    enctype ? ` enctype="${enctype}"` : ""
  }>${inputs}</form><script>document.forms[0].submit()</script>`
}

/**
 * Opens the attacker's page that posts `fields` to the demo's `path` on load (top level, or
 * from a sandboxed frame whose `Origin` is `null`); the status the demo answered the post with.
 */
async function postFromAttacker(
  page: Page,
  path: string,
  fields: Record<string, string>,
  { enctype, sandboxed = false }: { enctype?: string; sandboxed?: boolean } = {},
): Promise<number> {
  const target = demo.server.url + path
  const form = autoPost(target, fields, enctype)
  const answered = page.waitForResponse(
    (response) => response.url() === target && response.request().method() === "POST",
  )
  const attackerPage = `/post-${Math.random().toString(36).slice(2)}`
  if (!sandboxed) {
    await page.goto(attacker.page(attackerPage, form))
  } else {
    // The frame's own script posts, once the test is watching the frame (a form posted while
    // the frame is being attached can go unseen by Playwright).
    const frameHtml = form.replace(/<script>.*<\/script>/, "")
    await page.goto(
      attacker.page(
        attackerPage,
        `<!doctype html><iframe sandbox="allow-forms allow-scripts" srcdoc="${frameHtml.replace(/"/g, "&quot;")}"></iframe>`,
      ),
    )
    const frame = page.frames().find((f) => f !== page.mainFrame())!
    await frame.evaluate(() => document.forms[0]!.submit())
  }
  const response = await answered.catch((error: unknown) => {
    throw new Error(`${path} ${JSON.stringify({ enctype, sandboxed })}: ${String(error)}`)
  })
  return response.status()
}

/** The value of the demo's session cookie in `context`, if any. */
async function sessionCookie(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies(demo.server.url)
  return cookies.find((cookie) => cookie.name === "tessera.session-token")?.value
}

/** What an authenticator app shows for `secret` now. */
const totp = (secret: string) =>
  generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000)), 6)

/** Calls one of Tessera's two-factor routes from the demo's own page, with its CSRF token. */
function twoFactorCall(page: Page, route: string, fields: Record<string, string> = {}) {
  return page.evaluate(
    async ({ route, fields }) => {
      const { csrfToken } = await (await fetch("/auth/csrf")).json()
      const response = await fetch(`/auth/two-factor/${route}`, {
        method: "POST",
        headers: { accept: "application/json" },
        body: new URLSearchParams({ ...fields, csrfToken }),
      })
      return { status: response.status, body: await response.json().catch(() => null) }
    },
    { route, fields },
  )
}

describe.skipIf(!hasChromium)("the demo attacked from another origin in Chromium", () => {
  test("no page that signs in, signs out, ends sessions or sets up a second factor can be framed", async () => {
    await withContext(async (page, context) => {
      await signInWithPassword(page, "alice@example.test", "wonderland-42")
      const targets = [
        "/account",
        "/signout",
        "/signin",
        "/signin/two-factor",
        "/",
        "/admin/users",
        "/about",
        "/auth/signin",
        "/auth/signout",
        "/auth/error?error=Configuration",
      ]
      const framed: string[] = []
      for (const path of targets) {
        const target = demo.server.url + path
        const url = attacker.page(
          `/frame${path.replace(/[^a-z]/g, "-")}`,
          `<!doctype html><iframe src="${target}" width="800" height="600"></iframe>`,
        )
        const answered = page.waitForResponse((response) => response.url() === target)
        await page.goto(url)
        const response = await answered
        // The frame has loaded (or been replaced by Chromium's error page) once the page has.
        await page.waitForLoadState("load")
        const frame = page.frames().find((f) => f !== page.mainFrame())
        const shown = frame?.url() ?? ""
        const rendered = shown.startsWith(demo.server.url)
          ? await frame!.evaluate(() => document.body?.innerText.length ?? 0).catch(() => 0)
          : 0
        if (rendered > 0) framed.push(`${path} (${response.status()})`)
      }
      expect(framed, "demo pages shown inside the attacker's frame").toEqual([])
      // The frames carried the session (same-site): the attack had what it needed.
      expect((await sessionOf(context))?.user?.email).toBe("alice@example.test")
    })
  }, 60_000)
  test("cross-site form posts sign nobody out, end no session and turn off no second factor", async () => {
    await withContext(async (other, otherDevice) => {
      await withContext(async (page, context) => {
        // Victor: a second factor on, and signed in on two devices.
        await page.goto("/signin?redirectTo=/account")
        await page.getByRole("button", { name: "Sign in with Local IdP" }).click()
        await loginAtLocalIdp(page, "victor")
        await page.waitForURL(`${demo.server.url}/account`)
        const setup = await twoFactorCall(page, "setup")
        expect(setup.status).toBe(200)
        const { secret, recoveryCodes } = setup.body as { secret: string; recoveryCodes: string[] }
        expect((await twoFactorCall(page, "enable", { code: totp(secret) })).status).toBe(200)
        await other.goto("/signin?redirectTo=/account")
        await other.getByRole("button", { name: "Sign in with Local IdP" }).click()
        await loginAtLocalIdp(other, "victor")
        await other.waitForURL(/\/signin\/two-factor/)
        // A recovery code: the code that turned it on may still be the current one, used.
        await other.fill("#tessera-two-factor-code", recoveryCodes[0]!)
        await other.getByRole("button", { name: "Verify" }).click()
        await other.waitForURL(`${demo.server.url}/account`)
        await page.reload()
        const otherSessionId = await page
          .getByTestId("session-other")
          .locator("input[name=id]")
          .first()
          .getAttribute("value")
        expect(otherSessionId).toBeTruthy()
        const { csrfToken } = (await (
          await context.request.get(`${demo.server.url}/auth/csrf`)
        ).json()) as { csrfToken: string }

        const attacks: [
          string,
          Record<string, string>,
          { enctype?: string; sandboxed?: boolean }?,
        ][] = [
          ["/signout", {}],
          ["/signout", {}, { enctype: "text/plain" }],
          ["/signout", {}, { sandboxed: true }],
          ["/account?/endOtherSessions", {}],
          ["/account?/endOtherSessions", {}, { enctype: "multipart/form-data" }],
          ["/account?/endSession", { id: otherSessionId! }],
          // Even with the victim's own CSRF token (a leak) and a valid code.
          ["/auth/signout", { csrfToken, callbackUrl: "/" }],
          ["/auth/signout", { csrfToken, scope: "all" }],
          ["/auth/sessions/revoke", { csrfToken, sessionId: otherSessionId! }],
          ["/auth/two-factor/disable", { csrfToken, code: totp(secret) }],
          ["/auth/two-factor/disable", { csrfToken, code: totp(secret) }, { sandboxed: true }],
        ]
        const answers: string[] = []
        for (const [path, fields, options] of attacks)
          answers.push(
            `${path} ${JSON.stringify(options ?? {})}: ${await postFromAttacker(page, path, fields, options)}`,
          )
        expect(answers.filter((answer) => !answer.endsWith(": 403"))).toEqual([])

        // Both devices still signed in, the second factor still on.
        expect((await sessionOf(context))?.user?.email).toBe("victor@example.test")
        expect((await sessionOf(otherDevice))?.user?.email).toBe("victor@example.test")
        await page.goto("/account")
        await expect(page.getByTestId("two-factor-state").textContent()).resolves.toContain("On:")
        await expect(page.getByTestId("session-other").count()).resolves.toBe(1)
      })
    })
  }, 90_000)

  test("login CSRF: cross-site posts of the attacker's own credentials sign the victim in as nobody", async () => {
    await withContext(async (page, context) => {
      // The attacker's own CSRF pair, fetched outside the victim's browser.
      const mine = await fetch(`${demo.server.url}/auth/csrf`)
      const { csrfToken } = (await mine.json()) as { csrfToken: string }
      const bob = { email: "bob@example.test", password: "builder-42" }
      const attacks: [
        string,
        Record<string, string>,
        { enctype?: string; sandboxed?: boolean }?,
      ][] = [
        ["/signin", { providerId: "credentials", ...bob, redirectTo: "/" }],
        ["/signin", { providerId: "credentials", ...bob }, { enctype: "text/plain" }],
        ["/auth/callback/credentials", { ...bob, csrfToken }],
        ["/auth/callback/credentials", { ...bob, csrfToken }, { sandboxed: true }],
        ["/auth/signin/email", { email: "mallory@example.test", csrfToken }],
        ["/signin/two-factor", { providerId: "two-factor", code: "123456" }],
      ]
      const answers: string[] = []
      for (const [path, fields, options] of attacks)
        answers.push(
          `${path} ${JSON.stringify(options ?? {})}: ${await postFromAttacker(page, path, fields, options)}`,
        )
      expect(answers.filter((answer) => !answer.endsWith(": 403"))).toEqual([])
      expect(await sessionOf(context)).toBeNull()
      expect(await sessionCookie(context)).toBeUndefined()
    })
  }, 60_000)

  const offSite = () => {
    const host = new URL(attacker.url).host
    return [
      `${attacker.url}/pwned`,
      `//${host}/pwned`,
      `/\\${host}/pwned`,
      `\\/${host}/pwned`,
      `/\t/${host}/pwned`,
      ` //${host}/pwned`,
      `https:${host}/pwned`,
      `http:/\\${host}/pwned`,
      `${demo.server.url}@${host}/pwned`,
      `//${host}%2F..%2F/pwned`,
    ]
  }

  test("open redirects: signing in and out with a callbackUrl or redirectTo off the site stays on it", async () => {
    await withContext(async (page, context) => {
      const landed: string[] = []
      const record = (via: string, target: string) => {
        const at = new URL(page.url())
        if (at.origin !== demo.server.url)
          landed.push(`${via} ${JSON.stringify(target)} -> ${at.href}`)
      }
      // Each target through one of the two sign-in pages (a sign-in costs a scrypt), then the
      // built-in sign-out page.
      for (const [index, target] of offSite().entries()) {
        await context.clearCookies()
        if (index % 2 === 0) {
          await page.goto(`/auth/signin?callbackUrl=${encodeURIComponent(target)}`)
          await page.fill("#input-email-for-credentials-provider", "alice@example.test")
          await page.fill("#input-password-for-credentials-provider", "wonderland-42")
          await Promise.all([
            page.waitForNavigation(),
            page.getByRole("button", { name: "Sign in with Demo account" }).click(),
          ])
          await page.waitForLoadState("load")
          record("built-in sign-in", target)
        } else {
          await page.goto(`/signin?redirectTo=${encodeURIComponent(target)}`)
          await page.locator("button:enabled", { hasText: "Sign in with a passkey" }).waitFor()
          await page.fill("#credentials-email", "alice@example.test")
          await page.fill("#credentials-password", "wonderland-42")
          await Promise.all([
            page.waitForNavigation(),
            page
              .locator("form.signInButton:has(input[name=providerId][value=credentials])")
              .getByRole("button", { name: "Sign in" })
              .click(),
          ])
          await page.waitForLoadState("load")
          record("demo sign-in", target)
        }
        expect((await sessionOf(context))?.user?.email).toBe("alice@example.test")

        await page.goto(`/auth/signout?callbackUrl=${encodeURIComponent(target)}`)
        await Promise.all([
          page.waitForNavigation(),
          page.getByRole("button", { name: "Sign out" }).last().click(),
        ])
        await page.waitForLoadState("load")
        record("built-in sign-out", target)
        expect(await sessionOf(context)).toBeNull()

        // A failure Tessera sends back to its sign-in page, which the demo turns to /signin.
        await page.goto(
          `/auth/signin?error=OAuthCallbackError&callbackUrl=${encodeURIComponent(target)}`,
        )
        record("failure page", target)
        const redirectTo = new URL(page.url()).searchParams.get("redirectTo")
        if (redirectTo !== null && !/^\/(?![/\\])/.test(redirectTo))
          landed.push(`failure page ${JSON.stringify(target)} -> redirectTo=${redirectTo}`)
      }
      expect(landed).toEqual([])
    })
  }, 120_000)

  test("session fixation: a cookie planted from a same-site page before sign-in does not survive it", async () => {
    await withContext(async (attackerPage, attackerContext) => {
      await signInWithPassword(attackerPage, "bob@example.test", "builder-42")
      const bobsToken = (await sessionCookie(attackerContext))!
      expect(bobsToken).toBeTruthy()
      for (const planted of ["planted-by-the-attacker", bobsToken]) {
        await withContext(async (page, context) => {
          await page.goto(
            attacker.page(
              "/plant",
              `<!doctype html><script>document.cookie = "tessera.session-token=" + ${JSON.stringify(
                planted,
              )} + "; path=/"</script><p>planted</p>`,
            ),
          )
          expect(await sessionCookie(context)).toBe(planted)
          await signInWithPassword(page, "alice@example.test", "wonderland-42")
          const token = await sessionCookie(context)
          expect(token).toBeTruthy()
          expect(token).not.toBe(planted)
          expect((await sessionOf(context))?.user?.email).toBe("alice@example.test")
        })
        // The attacker's own browser, with the planted value, is not Alice.
        const theirs = await sessionOf(attackerContext)
        expect(theirs?.user?.email).not.toBe("alice@example.test")
      }
    })
  }, 60_000)

  test("the built-in pages' CSP blocks an injected inline script, and blocks nothing a sign-in needs", async () => {
    await withContext(async (page) => {
      const violations: string[] = []
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text()))
          violations.push(`${page.url()}: ${message.text()}`)
      })
      for (const path of [
        "/auth/signin",
        "/auth/signin?error=CredentialsSignin",
        "/auth/error?error=Verification",
        "/auth/error?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/auth/signout",
      ]) {
        await page.goto(path)
        await page.waitForLoadState("load")
      }
      await page.goto("/auth/signin")
      await page.fill("#input-email-for-credentials-provider", "alice@example.test")
      await page.fill("#input-password-for-credentials-provider", "wonderland-42")
      await page.getByRole("button", { name: "Sign in with Demo account" }).click()
      await page.waitForURL(`${demo.server.url}/`)
      await page.goto("/auth/signout")
      await page.waitForLoadState("load")
      expect(violations, "CSP violations on a normal sign-in").toEqual([])

      /** Injects an inline script and an inline event handler; what ran and what was reported. */
      const inject = () =>
        page.evaluate(async () => {
          const w = window as unknown as { ran?: string[] }
          w.ran = []
          const reported: string[] = []
          document.addEventListener("securitypolicyviolation", (event) =>
            reported.push(event.effectiveDirective),
          )
          const script = document.createElement("script")
          script.textContent = "window.ran.push('script')"
          document.body.append(script)
          const holder = document.createElement("div")
          holder.innerHTML = `<img src="data:," onload="window.ran.push('handler')" onerror="window.ran.push('handler')">`
          document.body.append(holder)
          await new Promise((resolve) => setTimeout(resolve, 200))
          return { ran: w.ran, reported }
        })
      for (const path of ["/auth/signin", "/auth/signout", "/auth/error?error=Verification"]) {
        await page.goto(path)
        const { ran, reported } = await inject()
        expect(ran, path).toEqual([])
        expect(reported, path).toContain("script-src-elem")
      }
      // The same injection runs on a page without such a policy: the probe sees scripts run.
      await page.goto("/about")
      expect((await inject()).ran).toContain("script")
    })
  }, 60_000)

  test("stored XSS: a Local IdP name full of markup is text on every page, no script runs", async () => {
    await withContext(async (page, context, dialogs) => {
      const login = `<img src=x onerror=alert(1)><svg onload=alert(2)>"'><script>alert(3)</script>`
      await page.goto("/signin?redirectTo=/account")
      await page.getByRole("button", { name: "Sign in with Local IdP" }).click()
      await loginAtLocalIdp(page, login)
      await page.waitForURL((url) => url.origin === demo.server.url)
      const session = await sessionOf(context)
      expect(session?.user).toBeTruthy()
      for (const path of [
        "/",
        "/account",
        "/admin",
        "/admin/users",
        "/signout",
        "/signin",
        "/auth/signin",
        "/auth/signout",
        "/signin/two-factor",
      ]) {
        await page.goto(path)
        await page.waitForLoadState("load")
        expect(await page.locator("img[src=x], svg[onload]").count(), path).toBe(0)
      }
      await page.goto("/")
      await expect(page.getByTestId("signed-in-as").textContent()).resolves.toContain("<img src=x")

      // Query values an attacker puts in a link, on the demo's pages and Tessera's.
      const markup = encodeURIComponent(`"><img src=x onerror=alert(4)>`)
      for (const path of [
        `/signin?error=${markup}&redirectTo=${markup}`,
        `/signin?callbackUrl=javascript:alert(5)`,
        `/signin/two-factor?error=${markup}`,
        `/auth/signin?error=${markup}&callbackUrl=${markup}`,
        `/auth/error?error=${markup}`,
        `/auth/signout?callbackUrl=javascript:alert(6)`,
        `/signin/check-email?email=${markup}`,
      ]) {
        await page.goto(path)
        await page.waitForLoadState("load")
        expect(await page.locator("img[src=x]").count(), path).toBe(0)
      }
      expect(dialogs).toEqual([])
    })
  }, 60_000)
  test("the attacker's own sign-in link opened by a signed-in victim never puts the attacker's address on the victim's account", async () => {
    await withContext(async (mallory, malloryContext) => {
      /** Asks for a link to `email` in Mallory's browser; the newest link the mailbox has for it. */
      const linkFor = async (email: string) => {
        await mallory.goto("/signin")
        await mallory.fill("#email-address", email)
        await mallory.getByRole("button", { name: "Send me a sign-in link" }).click()
        await mallory.waitForURL(/\/signin\/check-email/)
        await mallory.goto("/dev/mailbox")
        return (await mallory
          .getByTestId("mail")
          .filter({ hasText: email })
          .first()
          .getByRole("link", { name: "Open the sign-in link" })
          .getAttribute("href"))!
      }
      const link = await linkFor("mallory@example.test")
      await withContext(async (page) => {
        await signInWithPassword(page, "alice@example.test", "wonderland-42")
        // A top-level navigation from the attacker's page to Mallory's own link.
        const lure = attacker.page(
          "/lure",
          `<!doctype html><script>location.href = ${JSON.stringify(link)}</script>`,
        )
        await page.goto(lure)
        await page.waitForURL(
          (url) => url.origin === demo.server.url && !url.pathname.startsWith("/auth/"),
        )
        // The link may sign the browser in as Mallory (as Auth.js does: a sign-in link signs in
        // whoever opens it). Alice's account must not have gained Mallory's address.
        await signInWithPassword(page, "alice@example.test", "wonderland-42")
        await expect(page.getByTestId("profile-email").textContent()).resolves.toBe(
          "alice@example.test",
        )
        await expect(page.getByTestId("linked-accounts").count()).resolves.toBe(0)
      })
      // Mallory signs in with a fresh link to her address: her own account, not Alice's.
      await malloryContext.clearCookies()
      const again = await linkFor("mallory@example.test")
      await mallory.goto(again)
      await mallory.waitForURL(
        (url) => url.origin === demo.server.url && !url.pathname.startsWith("/auth/"),
      )
      const hers = await sessionOf(malloryContext)
      expect(hers?.user?.email).toBe("mallory@example.test")
      await mallory.goto("/account")
      await expect(mallory.getByTestId("profile-email").textContent()).resolves.toBe(
        "mallory@example.test",
      )
      await expect(mallory.getByTestId("profile-name").textContent()).resolves.not.toContain(
        "Alice",
      )
    })
  }, 60_000)
})
