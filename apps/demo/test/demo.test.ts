/**
 * End-to-end tests of the built demo: the real server process (`server.js`,
 * adapter-node, SQLite, the local OpenID provider) on loopback, driven over
 * HTTP and, when Debian's Chromium is installed, through a real browser.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { createServer, type AddressInfo } from "node:net"
import { createRequire } from "node:module"
import { join } from "node:path"
import { decodeBase32IgnorePadding } from "@oslojs/encoding"
import { generateHOTP } from "@oslojs/otp"
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { HttpBrowser, completeOidcLogin } from "@tessera/testing"
import { demoDir, makeDataDir, startDemo, type DemoServer } from "./demo-server"

const CHROMIUM = "/usr/bin/chromium"
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) {
  console.warn(
    `\n[apps/demo] ${CHROMIUM} not found: the browser end-to-end tests did NOT run ` +
      "(credentials, e-mail link, passkey and Local IdP sign-in, sign-out, session across reloads, " +
      "forms with JavaScript disabled). Install it with `apt-get install chromium` (.ci/run does).\n",
  )
}

const dataDir = makeDataDir()
let demo: DemoServer

beforeAll(async () => {
  demo = await startDemo({ dataDir })
})

afterAll(async () => {
  await demo?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** A request the way a browser's form post makes it: SvelteKit refuses cross-site form posts. */
function postForm(path: string, fields: Record<string, string>, cookie = ""): Promise<Response> {
  return fetch(new URL(path, demo.url), {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: demo.url,
      accept: "text/html",
      "content-type": "application/x-www-form-urlencoded",
      cookie,
    },
    body: new URLSearchParams(fields),
  })
}

function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .join("; ")
}

describe("the demo server over HTTP", () => {
  test("starts with development defaults: data folder, secret file (0600), SQLite database, banner", async () => {
    const secretFile = join(demo.dataDir, "dev-secret")
    const secret = readFileSync(secretFile, "utf8").trim()
    expect(secret.length).toBeGreaterThanOrEqual(32)
    expect(statSync(secretFile).mode & 0o777).toBe(0o600)
    expect(existsSync(join(demo.dataDir, "demo.db"))).toBe(true)
    expect(demo.output()).toContain("DEVELOPMENT DEFAULTS")
    expect(demo.output()).not.toContain(secret)

    const response = await fetch(demo.url)
    expect(response.status).toBe(200)
    const html = await response.text()
    expect(html).toContain("Development defaults.")
    expect(html).toContain("You are not signed in")
    expect(html).not.toContain(secret)
  })

  test.each(["/account", "/admin", "/admin/users"])(
    "%s answers 303 to the sign-in page without a session",
    async (path) => {
      const response = await fetch(new URL(path, demo.url), { redirect: "manual" })
      expect(response.status).toBe(303)
      const location = new URL(response.headers.get("location")!, demo.url)
      expect(location.pathname).toBe("/signin")
      expect(location.searchParams.get("redirectTo")).toBe(path)
    },
  )

  test("the /admin guard also covers the data requests of client-side navigation", async () => {
    // SvelteKit answers a data request's redirect in JSON, for its client router to follow.
    const response = await fetch(new URL("/admin/users/__data.json", demo.url), {
      redirect: "manual",
    })
    const body = await response.json()
    expect(body).toEqual({ type: "redirect", location: "/signin?redirectTo=%2Fadmin%2Fusers" })
  })

  test("a wrong password and an unknown e-mail get the same failure, and no session", async () => {
    const answers = []
    for (const [email, password] of [
      ["alice@example.test", "not-her-password"],
      ["nobody@example.test", "wonderland-42"],
    ]) {
      const response = await postForm("/signin", {
        providerId: "credentials",
        email: email!,
        password: password!,
        redirectTo: "/",
      })
      expect(response.status).toBe(400)
      expect(response.headers.getSetCookie().some((c) => /session-token=[^;]/.test(c))).toBe(false)
      const html = await response.text()
      const alert = /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1]
      answers.push(alert)
    }
    expect(answers[0]).toBe("That e-mail address and password do not match a demo account.")
    expect(answers[1]).toBe(answers[0])
  })

  test("guessing a password: after 10 failures the address is locked, and says so", async () => {
    const alerts: (string | undefined)[] = []
    for (let i = 0; i < 11; i++) {
      const response = await postForm("/signin", {
        providerId: "credentials",
        email: "mallory@example.test",
        password: `guess ${i}`,
        redirectTo: "/",
      })
      expect(response.status).toBe(400)
      alerts.push(/<p class="error" role="alert">([^<]*)<\/p>/.exec(await response.text())?.[1])
    }
    expect(new Set(alerts.slice(0, 10))).toEqual(
      new Set(["That e-mail address and password do not match a demo account."]),
    )
    expect(alerts[10]).toBe("Too many attempts. Wait a few minutes, then try again.")
  })

  test("a demo account signs in through the SignIn form action, with a session cookie fit for http", async () => {
    const response = await postForm("/signin", {
      providerId: "credentials",
      email: "bob@example.test",
      password: "builder-42",
      redirectTo: "/account",
    })
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toMatch(/\/account$/)
    const sessionCookie = response.headers
      .getSetCookie()
      .find((c) => /^[\w.-]*session-token=\w/.test(c))
    expect(sessionCookie).toBeDefined()
    expect(sessionCookie).toMatch(/;\s*HttpOnly/i)
    expect(sessionCookie).toMatch(/;\s*SameSite=Lax/i)
    expect(sessionCookie).not.toMatch(/;\s*Secure/i) // plain http on loopback

    const account = await fetch(new URL("/account", demo.url), {
      headers: { cookie: cookiesOf(response) },
      redirect: "manual",
    })
    expect(account.status).toBe(200)
    expect(await account.text()).toContain("bob@example.test")
    // Rendered with Bob's session (its cookie did not slide): no shared cache may keep it.
    expect(account.headers.getSetCookie()).toEqual([])
    expect(account.headers.get("cache-control")).toBe("private, no-cache, no-store")
    // An anonymous page is left as the app made it.
    const home = await fetch(new URL("/health", demo.url))
    expect(home.headers.get("cache-control")).toBeNull()
  })

  test("/health never needs a session", async () => {
    const response = await fetch(new URL("/health", demo.url))
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: "ok" })
  })

  test("prerendered pages have no plain anchors to /auth/signin, and use the SignIn form instead", async () => {
    const root = join(demoDir, "build", "prerendered")
    const pages = htmlFiles(root)
    expect(pages.map((file) => file.slice(root.length))).toContain("/about.html")
    for (const file of pages) {
      expect(readFileSync(file, "utf8"), file).not.toMatch(
        /<a\b[^>]*\bhref\s*=\s*["']?[^"'>\s]*\/auth\/signin/i,
      )
    }
    const about = await fetch(new URL("/about", demo.url))
    expect(about.status).toBe(200)
    expect(await about.text()).toMatch(
      /<form method="POST" action="\/signin" class="signInButton">/,
    )
  })

  test.each([
    {
      what: "an account whose e-mail address already has one (alice, signed out)",
      login: { accountId: "alice" },
      message: "That e-mail address already belongs to an account here.",
    },
    {
      what: "a sign-in cancelled at the provider",
      login: { accountId: "nobody", cancel: true },
      message: "The identity provider did not sign you in (cancelled, or it failed).",
    },
  ])(
    "a failed Local IdP sign-in, $what, lands back on the demo's sign-in page with its message",
    async ({ login, message }) => {
      const browser = new HttpBrowser(demo.url)
      const start = await browser.request("/signin", {
        form: { providerId: "local-idp", redirectTo: "/account" },
        headers: { origin: demo.url, accept: "text/html" },
      })
      expect(start.status).toBe(303)
      const callback = await completeOidcLogin(start.headers.get("location")!, login)
      const failed = await browser.request(callback.url)
      // Tessera sends the failure to its sign-in page; the demo turns it around to its own.
      const builtIn = new URL(failed.headers.get("location")!, demo.url)
      expect(builtIn.pathname).toBe("/auth/signin")
      const turned = await browser.request(builtIn)
      expect(turned.status).toBe(303)
      const own = new URL(turned.headers.get("location")!, demo.url)
      expect(own.pathname).toBe("/signin")
      const page = await browser.request(own)
      expect(page.status).toBe(200)
      const html = await page.text()
      const alert = /<p class="error" role="alert" data-testid="providers-error">([^<]*)<\/p>/.exec(
        html,
      )?.[1]
      expect(alert).toContain(message)
      expect(await browser.session()).toBeNull()
      // Nothing was taken from the demo account: its password still signs it in.
      const alice = await postForm("/signin", {
        providerId: "credentials",
        email: "alice@example.test",
        password: "wonderland-42",
        redirectTo: "/",
      })
      expect(alice.status).toBe(303)
    },
  )

  test("only fixed messages: an unknown error value shows the general one, never itself", async () => {
    const response = await fetch(new URL("/auth/signin?error=%3Cb%3Eowned%3C%2Fb%3E", demo.url), {
      redirect: "manual",
    })
    expect(response.status).toBe(303)
    const page = await fetch(new URL(response.headers.get("location")!, demo.url))
    const html = await page.text()
    expect(html).toContain("Signing in did not work. Please try again.")
    expect(html).not.toContain("owned")
  })

  test("the built-in sign-in page is still there when nothing failed", async () => {
    const response = await fetch(new URL("/auth/signin", demo.url), { redirect: "manual" })
    expect(response.status).toBe(200)
    expect(await response.text()).toContain("Sign in with Local IdP")
  })

  test("the development mailbox is there only with development defaults", async () => {
    expect((await fetch(new URL("/dev/mailbox", demo.url))).status).toBe(200)
  })
})

describe.skipIf(!hasChromium)("the demo in Chromium", () => {
  let browser: Browser

  beforeAll(async () => {
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
  })

  async function withContext<T>(
    run: (page: Page, context: BrowserContext) => Promise<T>,
    options: {
      javaScriptEnabled?: boolean
      viewport?: { width: number; height: number }
      colorScheme?: "light" | "dark"
    } = {},
  ): Promise<T> {
    const context = await browser.newContext({ baseURL: demo.url, ...options })
    // Fail fast with the step that hung, well inside the test's own timeout.
    context.setDefaultTimeout(10_000)
    try {
      return await run(await context.newPage(), context)
    } finally {
      await context.close()
    }
  }

  const signedInAs = (page: Page) => page.getByTestId("signed-in-as")
  const credentialsForm = (page: Page) =>
    page.locator("form.signInButton:has(input[name=providerId][value=credentials])")

  async function signInWithPassword(
    page: Page,
    email: string,
    password: string,
    { javaScript = true } = {},
  ) {
    // The "load" event can come before hydration, which may reset fields
    // filled in the meantime: wait for the passkey button, enabled on mount.
    if (javaScript)
      await page.locator("button:enabled", { hasText: "Sign in with a passkey" }).waitFor()
    await page.fill("#credentials-email", email)
    await page.fill("#credentials-password", password)
    await credentialsForm(page).getByRole("button", { name: "Sign in" }).click()
  }

  test("credentials: sign in, the session survives reloads, sign out", async () => {
    await withContext(async (page) => {
      await page.goto("/account")
      await page.waitForURL(/\/signin\?redirectTo=%2Faccount$/)
      await signInWithPassword(page, "alice@example.test", "wonderland-42")
      await page.waitForURL(/\/account$/)
      await expect(signedInAs(page).textContent()).resolves.toBe("Alice Example")
      await expect(page.getByTestId("profile-email").textContent()).resolves.toBe(
        "alice@example.test",
      )

      await page.reload()
      await expect(page.getByTestId("profile-email").textContent()).resolves.toBe(
        "alice@example.test",
      )
      await page.goto("/admin/users")
      await expect(page.getByTestId("users").textContent()).resolves.toContain("alice@example.test")
      // Other users' addresses are masked: anyone can sign up and reach /admin.
      await expect(page.getByTestId("users").textContent()).resolves.not.toContain(
        "bob@example.test",
      )
      await expect(page.getByTestId("users").textContent()).resolves.toContain("b•••@example.test")

      await page.getByRole("button", { name: "Sign out" }).first().click()
      await page.waitForURL(`${demo.url}/`)
      await expect(
        page.getByRole("heading", { name: "You are not signed in" }).isVisible(),
      ).resolves.toBe(true)
      await page.goto("/account")
      await page.waitForURL(/\/signin\?redirectTo=%2Faccount$/)
    })
  })

  test("credentials: a failure says so without telling which field was wrong", async () => {
    await withContext(async (page) => {
      await page.goto("/signin")
      await signInWithPassword(page, "alice@example.test", "wrong password")
      const alert = page.getByRole("alert")
      await expect(alert.textContent()).resolves.toBe(
        "That e-mail address and password do not match a demo account.",
      )
      // The address stays filled in, the password does not.
      await expect(page.inputValue("#credentials-email")).resolves.toBe("alice@example.test")
      await expect(page.inputValue("#credentials-password")).resolves.toBe("")
      await expect(signedInAs(page).count()).resolves.toBe(0)
    })
  })

  test("with JavaScript disabled the SignIn and SignOut forms still work", async () => {
    await withContext(
      async (page) => {
        await page.goto("/signin?redirectTo=/admin")
        await signInWithPassword(page, "bob@example.test", "wrong", { javaScript: false })
        await expect(page.getByRole("alert").textContent()).resolves.toContain("do not match")

        await signInWithPassword(page, "bob@example.test", "builder-42", { javaScript: false })
        await page.waitForURL(/\/admin$/)
        await expect(signedInAs(page).textContent()).resolves.toBe("Bob Example")

        await page.getByRole("button", { name: "Sign out" }).click()
        await page.waitForURL(`${demo.url}/`)
        await expect(signedInAs(page).count()).resolves.toBe(0)

        // The e-mail form too: it lands on the demo's "check your e-mail" page.
        await page.goto("/signin")
        await page.fill("#email-address", "nojs@example.test")
        await page.getByRole("button", { name: "Send me a sign-in link" }).click()
        await page.waitForURL(/\/signin\/check-email/)
      },
      { javaScriptEnabled: false },
    )
  })

  test("e-mail link: the mail arrives in the development mailbox and its link signs in", async () => {
    await withContext(async (page) => {
      await page.goto("/signin")
      await page.fill("#email-address", "Carol@Example.test")
      await page.getByRole("button", { name: "Send me a sign-in link" }).click()
      await page.waitForURL(/\/signin\/check-email/)

      await page.goto("/dev/mailbox")
      const mail = page.getByTestId("mail").filter({ hasText: "carol@example.test" }).first()
      await expect(mail.getByTestId("mail-to").textContent()).resolves.toBe("carol@example.test")
      await mail.getByRole("link", { name: "Open the sign-in link" }).click()
      await page.waitForURL(`${demo.url}/`)
      await expect(signedInAs(page).textContent()).resolves.toBe("carol@example.test")

      await page.goto("/account")
      await expect(page.getByTestId("profile-email").textContent()).resolves.toBe(
        "carol@example.test",
      )
      await expect(
        page.getByRole("row", { name: /E-mail verified/ }).textContent(),
      ).resolves.not.toContain("not yet")

      // The link worked once; a second use is refused.
      await page.getByRole("button", { name: "Sign out" }).first().click()
      await page.waitForURL(`${demo.url}/`)
      await page.goto("/dev/mailbox")
      await page
        .getByTestId("mail")
        .filter({ hasText: "carol@example.test" })
        .first()
        .getByRole("link")
        .click()
      await page.waitForURL(/error=Verification/)
      await page.goto("/")
      await expect(signedInAs(page).count()).resolves.toBe(0)
    })
  })

  test("passkey: create an account with one, sign out, sign in with it", async () => {
    await withContext(async (page, context) => {
      const cdp = await context.newCDPSession(page)
      await cdp.send("WebAuthn.enable")
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      })

      await page.goto("/signin?redirectTo=/account")
      await page.fill("#passkey-email", "dave@example.test")
      await page.getByRole("button", { name: "Create a passkey" }).click()
      await page.waitForURL(/\/account$/)
      await expect(page.getByTestId("profile-email").textContent()).resolves.toBe(
        "dave@example.test",
      )
      await expect(page.getByTestId("passkeys").locator("tbody tr").count()).resolves.toBe(1)

      await page.getByRole("button", { name: "Sign out" }).first().click()
      await page.waitForURL(`${demo.url}/`)
      await expect(signedInAs(page).count()).resolves.toBe(0)

      await page.goto("/signin?redirectTo=/account")
      await page.getByRole("button", { name: "Sign in with a passkey" }).click()
      await page.waitForURL(/\/account$/)
      await expect(page.getByTestId("profile-email").textContent()).resolves.toBe(
        "dave@example.test",
      )
    })
  })

  /** oidc-provider's development login and consent pages. */
  async function loginAtLocalIdp(page: Page, login: string) {
    await page.waitForURL((url) => url.hostname === "127.0.0.1")
    await page.fill("input[name=login]", login)
    await page.fill("input[name=password]", "any password")
    await page.locator("button[type=submit]").click()
    // Consent
    await page.locator("button[type=submit]").click()
  }

  /** Signs out of a Local IdP session: the provider's confirmation page, then back to the demo. */
  async function signOutAtLocalIdp(page: Page) {
    await page.getByRole("button", { name: "Sign out" }).first().click()
    await page.waitForURL((url) => url.hostname === "127.0.0.1" && url.pathname === "/session/end")
    await page.getByRole("button", { name: "Yes, sign me out" }).click()
    // Back with the provider's `state`.
    await page.waitForURL((url) => url.origin === demo.url && url.pathname === "/")
  }

  /** Logs in at the Local IdP again; it asks for consent again unless it kept the grant. */
  async function loginAgainAtLocalIdp(page: Page, login: string) {
    await page.waitForURL((url) => url.hostname === "127.0.0.1")
    await page.fill("input[name=login]", login)
    await page.fill("input[name=password]", "any password")
    await Promise.all([page.waitForNavigation(), page.locator("button[type=submit]").click()])
    if (new URL(page.url()).hostname === "127.0.0.1")
      await page.locator("button[type=submit]").click()
  }

  test("Local IdP: sign in with the OpenID provider the demo started", async () => {
    await withContext(async (page) => {
      await page.goto("/signin?redirectTo=/account")
      await page.getByRole("button", { name: "Sign in with Local IdP" }).click()
      await loginAtLocalIdp(page, "erin")
      await page.waitForURL(`${demo.url}/account`)
      await expect(page.getByTestId("profile-email").textContent()).resolves.toBe(
        "erin@example.test",
      )
      await expect(page.getByTestId("linked-accounts").textContent()).resolves.toContain(
        "local-idp",
      )
      await page.reload()
      await expect(signedInAs(page).textContent()).resolves.toBe("Erin")
    })
  }, 60_000)

  test("Local IdP: signing out signs out at the provider too (RP-initiated logout)", async () => {
    await withContext(async (page) => {
      await page.goto("/signin?redirectTo=/account")
      await page.getByRole("button", { name: "Sign in with Local IdP" }).click()
      await loginAtLocalIdp(page, "frank")
      await page.waitForURL(`${demo.url}/account`)
      await page.getByRole("button", { name: "Sign out this device" }).click()
      // The provider's own confirmation page, then back to the demo, signed out.
      await page.waitForURL(
        (url) => url.hostname === "127.0.0.1" && url.pathname === "/session/end",
      )
      await page.getByRole("button", { name: "Yes, sign me out" }).click()
      await page.waitForURL((url) => url.origin === demo.url && url.pathname === "/")
      await expect(signedInAs(page).count()).resolves.toBe(0)
      // Signed out at the provider as well: it asks for the login again.
      await page.goto("/signin?redirectTo=/account")
      await page.getByRole("button", { name: "Sign in with Local IdP" }).click()
      await page.waitForURL((url) => url.hostname === "127.0.0.1")
      await expect(page.locator("input[name=login]").count()).resolves.toBe(1)
    })
  }, 60_000)

  test("Local IdP: a signed-in user links it from the account page", async () => {
    await withContext(async (page) => {
      await page.goto("/signin?redirectTo=/account")
      await signInWithPassword(page, "bob@example.test", "builder-42")
      await page.waitForURL(/\/account$/)
      await page.getByRole("button", { name: "Link Local IdP" }).click()
      await loginAtLocalIdp(page, "bob")
      await page.waitForURL(`${demo.url}/account`)
      await expect(page.getByTestId("linked-accounts").textContent()).resolves.toContain(
        "local-idp",
      )
      await expect(page.getByTestId("profile-email").textContent()).resolves.toBe(
        "bob@example.test",
      )
    })
  }, 60_000)

  test("sessions: the account page lists every device; sign out all other devices, then this one", async () => {
    await withContext(async (phone) => {
      await phone.goto("/signin?redirectTo=/account")
      await signInWithPassword(phone, "alice@example.test", "wonderland-42")
      await phone.waitForURL(/\/account$/)
      await withContext(async (laptop) => {
        await laptop.goto("/signin?redirectTo=/account")
        await signInWithPassword(laptop, "alice@example.test", "wonderland-42")
        await laptop.waitForURL(/\/account$/)
        const sessions = laptop.getByTestId("sessions")
        await expect(sessions.getByTestId("session-current").count()).resolves.toBe(1)
        await expect(sessions.getByTestId("session-current").textContent()).resolves.toContain(
          "(this device)",
        )
        const others = await sessions.getByTestId("session-other").count()
        expect(others).toBeGreaterThanOrEqual(1)

        await laptop.getByRole("button", { name: "Sign out all other devices" }).click()
        await expect
          .poll(() => laptop.getByTestId("session-other").count(), { timeout: 10_000 })
          .toBe(0)
        await expect(laptop.getByText("No other device is signed in.").isVisible()).resolves.toBe(
          true,
        )
        // The phone's session ended (database sessions: on its next request).
        await phone.goto("/account")
        await phone.waitForURL(/\/signin\?redirectTo=%2Faccount$/)

        await laptop.getByRole("button", { name: "Sign out this device" }).click()
        await laptop.waitForURL(`${demo.url}/`)
        await expect(signedInAs(laptop).count()).resolves.toBe(0)
      })
    })
  }, 60_000)

  test("on a 390 px wide phone, /admin/users fits: nothing wider than the screen", async () => {
    await withContext(
      async (page) => {
        await page.goto("/signin?redirectTo=/admin/users")
        await signInWithPassword(page, "alice@example.test", "wonderland-42")
        await page.waitForURL(/\/admin\/users$/)
        await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBe(390)
        const users = page.getByTestId("users-narrow")
        await expect(users.isVisible()).resolves.toBe(true)
        await expect(users.textContent()).resolves.toContain("alice@example.test")
        const right = await users.evaluate((list) =>
          Math.max(...[...list.querySelectorAll("*")].map((e) => e.getBoundingClientRect().right)),
        )
        expect(right).toBeLessThanOrEqual(390)
      },
      { viewport: { width: 390, height: 844 } },
    )
  })

  test("axe-core finds no serious or critical WCAG 2.2 A/AA violation, light and dark, desktop and 390 px", async () => {
    const axeSource = readFileSync(
      createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
      "utf8",
    )
    const found: string[] = []
    const check = async (page: Page, name: string) => {
      await page.evaluate(axeSource)
      const violations: { id: string; impact: string; nodes: { target: string[] }[] }[] =
        await page.evaluate(async () => {
          const result = await (window as any).axe.run(document, {
            runOnly: {
              type: "tag",
              values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"],
            },
          })
          return result.violations.map((v: any) => ({
            id: v.id,
            impact: v.impact,
            nodes: v.nodes.map((n: any) => ({ target: n.target })),
          }))
        })
      for (const v of violations)
        if (v.impact === "serious" || v.impact === "critical")
          found.push(`${name}: ${v.id} ${JSON.stringify(v.nodes.map((n) => n.target))}`)
    }
    const signedOut = ["/", "/about", "/signin", "/signin?error=CredentialsSignin", "/auth/signin"]
    const signedIn = ["/account", "/admin", "/admin/users", "/signout"]
    for (const [scheme, width] of [
      ["light", 1280],
      ["dark", 390],
    ] as const) {
      await withContext(
        async (page) => {
          for (const path of signedOut) {
            await page.goto(path)
            await check(page, `${path} (${scheme}, ${width} px)`)
          }
          await page.goto("/signin?redirectTo=/account")
          await signInWithPassword(page, "alice@example.test", "wonderland-42")
          await page.waitForURL(/\/account$/)
          for (const path of signedIn) {
            await page.goto(path)
            await check(page, `${path}, signed in (${scheme}, ${width} px)`)
          }
        },
        { viewport: { width, height: 844 }, colorScheme: scheme },
      )
    }
    expect(found).toEqual([])
  }, 120_000)

  test("two-factor: set up on the account page (QR code), then every sign-in asks for the code", async () => {
    // What an authenticator app shows: `steps` 30-second steps from now (the server
    // accepts the step before and after its own, so no test waits for the clock).
    const totp = (secret: string, steps = 0) =>
      generateHOTP(
        decodeBase32IgnorePadding(secret),
        BigInt(Math.floor(Date.now() / 30_000) + steps),
        6,
      )
    await withContext(async (page) => {
      await page.goto("/signin?redirectTo=/account")
      await page.getByRole("button", { name: "Sign in with Local IdP" }).click()
      await loginAtLocalIdp(page, "grace")
      await page.waitForURL(`${demo.url}/account`)
      await expect(page.getByTestId("two-factor-state").textContent()).resolves.toContain("Off")

      await page.locator("button:enabled", { hasText: "Set up two-factor authentication" }).click()
      const qr = page.getByRole("img", { name: /QR code/ })
      await qr.waitFor()
      expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/)
      // The image loads (a valid SVG), at its size.
      expect(
        await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      ).toBe(true)
      const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim()
      expect(secret).toMatch(/^[A-Z2-7]{32}$/)
      const codes = await page.getByTestId("recovery-codes").locator("code").allTextContents()
      expect(codes).toHaveLength(10)

      await page.fill("#two-factor-enable-code", "000000")
      await page.getByRole("button", { name: "Turn on" }).click()
      await expect(page.getByTestId("two-factor-message").textContent()).resolves.toContain(
        "did not work",
      )
      await page.fill("#two-factor-enable-code", totp(secret))
      await page.getByRole("button", { name: "Turn on" }).click()
      await page.getByText("On: signing in asks for a code").waitFor()

      await signOutAtLocalIdp(page)

      // The first factor alone: the demo's code page, and no session.
      await page.goto("/signin?redirectTo=/account")
      // Signed out at the Local IdP too (RP-initiated logout): Grace logs in there again.
      await page.getByRole("button", { name: "Sign in with Local IdP" }).click()
      await loginAgainAtLocalIdp(page, "grace")
      await page.waitForURL(`${demo.url}/signin/two-factor`)
      const session = await page.request.get("/auth/session")
      expect(await session.json()).toBeNull()

      await page.fill("#tessera-two-factor-code", "123456")
      await page.getByRole("button", { name: "Verify" }).click()
      await expect(page.getByRole("alert").textContent()).resolves.toBe(
        "That code did not work. Try again.",
      )
      // The code of the next step: the one used to turn it on cannot be used again.
      await page.fill("#tessera-two-factor-code", totp(secret, 1))
      await page.getByRole("button", { name: "Verify" }).click()
      await page.waitForURL(`${demo.url}/account`)
      await expect(page.getByTestId("profile-name").textContent()).resolves.toBeTruthy()
      await expect(page.getByTestId("two-factor-state").textContent()).resolves.toContain("On")
      // The session the code finished is the one this device has: listed, and current.
      await expect(
        page.getByTestId("sessions").getByTestId("session-current").count(),
      ).resolves.toBe(1)

      // A recovery code works too, once.
      await signOutAtLocalIdp(page)
      await page.goto("/signin?redirectTo=/account")
      await page.getByRole("button", { name: "Sign in with Local IdP" }).click()
      await loginAgainAtLocalIdp(page, "grace")
      await page.waitForURL(`${demo.url}/signin/two-factor`)
      await page.fill("#tessera-two-factor-code", codes[0]!)
      await page.getByRole("button", { name: "Verify" }).click()
      await page.waitForURL(`${demo.url}/account`)
    })
  }, 90_000)

  test("the built-in sign-in page sits next to the custom one and works too", async () => {
    await withContext(async (page) => {
      await page.goto("/signin")
      await page.getByRole("button", { name: "Open the built-in sign-in page" }).click()
      await page.waitForURL(/\/auth\/signin\?callbackUrl=/)
      await expect(
        page.getByRole("button", { name: "Sign in with Local IdP" }).count(),
      ).resolves.toBe(1)
      await page.fill("#input-email-for-credentials-provider", "alice@example.test")
      await page.fill("#input-password-for-credentials-provider", "wonderland-42")
      await page.getByRole("button", { name: "Sign in with Demo account" }).click()
      await page.waitForURL(`${demo.url}/`)
      await expect(signedInAs(page).textContent()).resolves.toBe("Alice Example")
    })
  })
})

describe("without development defaults (AUTH_SECRET set)", () => {
  test("no banner, no development mailbox, no e-mail method without a mail server, no secret file", async () => {
    const ownDir = makeDataDir()
    const server = await startDemo({
      dataDir: ownDir,
      env: { AUTH_SECRET: "a-real-secret-of-the-operator-0123456789" },
    })
    try {
      expect(server.output()).not.toContain("DEVELOPMENT DEFAULTS")
      expect(existsSync(join(ownDir, "dev-secret"))).toBe(false)
      expect((await fetch(new URL("/dev/mailbox", server.url))).status).toBe(404)
      // The data request of client-side navigation: SvelteKit reports the load's 404 inside a 200.
      const data = await (await fetch(new URL("/dev/mailbox/__data.json", server.url))).text()
      expect(data).toContain('"status":404')
      expect(data).not.toContain("mails")
      const home = await (await fetch(server.url)).text()
      expect(home).not.toContain("Development defaults.")
      expect(home).not.toContain("/dev/mailbox")
      const signin = await (await fetch(new URL("/signin", server.url))).text()
      expect(signin).not.toContain("wonderland-42") // the demo passwords are shown only in development
      expect(signin).not.toContain("Send me a sign-in link") // no e-mail method without EMAIL_SERVER

      // The attack: the published demo password must not open Alice's account in production,
      // and the "any name, any password" local provider must not exist.
      const providers = (await (
        await fetch(new URL("/auth/providers", server.url))
      ).json()) as Record<string, unknown>
      expect(Object.keys(providers)).not.toContain("credentials")
      expect(Object.keys(providers)).not.toContain("local-idp")
      expect(server.output()).toContain("Local IdP  off")
      const csrf = await fetch(new URL("/auth/csrf", server.url))
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      const attempt = await fetch(new URL("/auth/callback/credentials", server.url), {
        method: "POST",
        redirect: "manual",
        headers: {
          origin: server.url,
          "content-type": "application/x-www-form-urlencoded",
          cookie: cookiesOf(csrf),
        },
        body: new URLSearchParams({
          email: "alice@example.test",
          password: "wonderland-42",
          csrfToken,
        }),
      })
      expect(attempt.status).toBe(404)
      expect(cookiesOf(attempt)).not.toContain("session-token")
    } finally {
      await server.stop()
      rmSync(ownDir, { recursive: true, force: true })
    }
  }, 60_000)

  test("refuses to mail sign-in links without ORIGIN: their host would be the client's Host header", async () => {
    const ownDir = makeDataDir()
    try {
      await expect(
        startDemo({
          dataDir: ownDir,
          env: {
            AUTH_SECRET: "a-real-secret-of-the-operator-0123456789",
            EMAIL_SERVER: "smtp://127.0.0.1:9",
          },
        }),
      ).rejects.toThrow(/exited \(1\)[\s\S]*ORIGIN/)
    } finally {
      rmSync(ownDir, { recursive: true, force: true })
    }
  }, 60_000)
})

describe("restarting on the same data folder", () => {
  test("keeps the secret, the database and the sessions; VK is offered once configured", async () => {
    const signIn = await postForm("/signin", {
      providerId: "credentials",
      email: "alice@example.test",
      password: "wonderland-42",
    })
    expect(signIn.status).toBe(303)
    const cookie = cookiesOf(signIn)
    const secret = readFileSync(join(dataDir, "dev-secret"), "utf8")
    expect(demo.output()).toContain("Database migrated")

    await demo.stop()
    demo = await startDemo({
      dataDir,
      env: { AUTH_VK_ID: "demo-vk-app", AUTH_VK_SECRET: "demo-vk-secret-not-real" },
    })

    expect(readFileSync(join(dataDir, "dev-secret"), "utf8")).toBe(secret)
    expect(demo.output()).not.toContain("Database migrated") // nothing left to apply
    const account = await fetch(new URL("/account", demo.url), {
      headers: { cookie },
      redirect: "manual",
    })
    expect(account.status).toBe(200)
    expect(await account.text()).toContain("alice@example.test")

    // VK: the button, and a sign-in that starts at VK's authorization endpoint (not followed: no network here).
    expect(await (await fetch(new URL("/signin", demo.url))).text()).toContain("Sign in with VK")
    const vk = await postForm("/signin", { providerId: "vk", redirectTo: "/account" })
    expect(vk.status).toBe(303)
    const location = new URL(vk.headers.get("location")!)
    expect(location.origin + location.pathname).toBe("https://oauth.vk.com/authorize")
    expect(location.searchParams.get("client_id")).toBe("demo-vk-app")
    expect(location.searchParams.get("redirect_uri")).toBe(`${demo.url}/auth/callback/vk`)
    expect(location.searchParams.get("state")).toMatch(/\S{20,}/)
    expect(location.searchParams.get("v")).toBe("5.126")
  }, 90_000)
})

function htmlFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return htmlFiles(path)
    return entry.name.endsWith(".html") ? [path] : []
  })
}

describe("a port in use", () => {
  test.each(["server.js", "dev.js"])(
    "node %s says so in one line and exits 1, without a stack",
    async (script) => {
      const taken = createServer()
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve))
      const { port } = taken.address() as AddressInfo
      const ownDir = makeDataDir()
      try {
        const result = spawnSync(process.execPath, [script], {
          cwd: demoDir,
          encoding: "utf8",
          timeout: 30_000,
          env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DEMO_DATA_DIR: ownDir },
        })
        expect(result.status).toBe(1)
        expect(result.stderr.trim()).toBe(
          `Port ${port} is in use: set PORT to another one (PORT=0 picks a free one).`,
        )
      } finally {
        taken.close()
        rmSync(ownDir, { recursive: true, force: true })
      }
    },
  )
})
