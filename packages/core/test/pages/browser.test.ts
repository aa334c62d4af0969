/**
 * The built-in pages in real Chromium: axe-core (WCAG 2.0/2.1/2.2 A and AA rules)
 * on every page (sign-in with every provider kind and each error, sign-out signed
 * in and out, the error page for each error value, verify-request) in light and
 * dark schemes, at a phone's width and a desktop's, and right to left; the
 * keyboard alone signing in, with a visible focus ring on every stop; errors
 * announced; pending buttons; the language from the browser's; passkeys at an
 * IP address; no favicon request.
 *
 * One browser for the file; pages come from a node:http server around `Auth()`.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import Email from "@tessera/core/providers/email"
import Passkey from "@tessera/core/providers/passkey"
import { MemoryAdapter } from "@tessera/testing"
import { CHROMIUM, hasChromium, launchChromium } from "../harness/chromium.js"
import { serveAuth, type AuthServer } from "../harness/http-server.js"
import {
  ADA,
  credentialsProvider,
  oauthProvider,
  SECRET,
  signIn as signInHere,
} from "../harness/index.js"
import { enableTwoFactor } from "../two-factor/helpers.js"

if (!hasChromium)
  console.warn(
    `[pages-browser] ${CHROMIUM} not found: the built-in pages' browser tests did NOT run`,
  )

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
)

const github = oauthProvider({ style: { brandColor: "#24292f" } })
const acme = oauthProvider({ id: "acme", name: "Acme", style: { brandColor: "#ffd84d" } })

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [
      github,
      acme,
      Email({ sendVerificationRequest: () => {} }),
      Passkey(),
      credentialsProvider(),
    ],
    ...overrides,
  }
}

/** Arabic, which Tessera does not ship: an app's own strings, read right to left. */
const arabic = {
  "signIn.title": "تسجيل الدخول",
  "signIn.or": "أو",
  "email.label": "البريد الإلكتروني",
  "email.submit": "أرسل رابط تسجيل الدخول",
  "signOut.title": "تسجيل الخروج",
  "signOut.signedOut": "لم تسجّل الدخول.",
  "signOut.back": "رجوع",
  "signOut.signIn": "تسجيل الدخول",
}

let current: AuthConfig = config()
let server: AuthServer
let origin = ""
let browser: Browser

beforeAll(async () => {
  if (!hasChromium) return
  server = await serveAuth(() => current, { localhost: true, home: true })
  origin = server.origin
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

interface Violation {
  id: string
  impact: string | null
  help: string
  nodes: { target: unknown[]; failureSummary?: string }[]
}

/**
 * axe-core on the open page, WCAG 2.0, 2.1 and 2.2 A and AA rules. Injected with
 * `page.evaluate` (the DevTools protocol, which the page's CSP does not govern), not
 * `page.addScriptTag`: the pages' nonce-only `script-src` refuses an inline script tag, and
 * `bypassCSP` would audit a page no visitor sees (a style the CSP blocks would still apply).
 */
async function axe(page: Page): Promise<Violation[]> {
  await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const result = await (window as any).axe.run(document, {
      runOnly: {
        type: "tag",
        values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"],
      },
    })
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => ({ target: n.target, failureSummary: n.failureSummary })),
    }))
  })
}

/** The looks every page is checked in: the theme's scheme, the system's, and the width. */
const looks = [
  { name: "auto, light system, desktop", theme: "auto", media: "light", width: 1280 },
  { name: "auto, dark system, 390 px", theme: "auto", media: "dark", width: 390 },
  { name: "theme dark, 390 px", theme: "dark", media: "light", width: 390 },
  { name: "theme light under a dark system, desktop", theme: "light", media: "dark", width: 1280 },
  {
    name: "light brandColor, desktop",
    theme: "auto",
    media: "light",
    width: 1280,
    brand: "#9be9a8",
  },
  {
    name: "German (long words), light, 390 px",
    theme: "auto",
    media: "light",
    width: 390,
    locale: "de",
  },
  {
    name: "Arabic (right to left), dark, 390 px",
    theme: "auto",
    media: "dark",
    width: 390,
    locale: "ar",
  },
] as const

const signInErrors = [
  "Signin",
  "OAuthSignin",
  "OAuthCallbackError",
  "OAuthCreateAccount",
  "EmailCreateAccount",
  "Callback",
  "OAuthAccountNotLinked",
  "EmailSignin",
  "CredentialsSignin",
  "SessionRequired",
  "Whatever",
]
const errorValues = ["Configuration", "AccessDenied", "Verification", "Whatever", ""]

const pages: [string, string][] = [
  ["sign-in", "/auth/signin"],
  ...signInErrors.map((e): [string, string] => [`sign-in ${e}`, `/auth/signin?error=${e}`]),
  ["sign-out, signed out", "/auth/signout"],
  ...errorValues.map((e): [string, string] => [`error ${e || "(none)"}`, `/auth/error?error=${e}`]),
  ["verify-request", "/auth/verify-request?provider=email&type=email"],
]

/** Signs in with the credentials form (mouse-free): fills and presses Enter. */
async function signIn(page: Page): Promise<void> {
  await page.goto(`${origin}/auth/signin`)
  await page.fill("#input-username-for-credentials-provider", "ada")
  await page.fill("#input-password-for-credentials-provider", "correct horse")
  await Promise.all([
    page.waitForURL(`${origin}/`),
    page.press("#input-password-for-credentials-provider", "Enter"),
  ])
}

describe.skipIf(!hasChromium)("the built-in pages in Chromium", () => {
  test(
    "axe-core finds no WCAG 2.2 A/AA violation, of any impact, on any page, in any look",
    { timeout: 480_000 },
    async () => {
      const found: { look: string; page: string; violation: Violation }[] = []
      const overflows: string[] = []
      for (const look of looks) {
        current = config({
          theme: {
            colorScheme: look.theme,
            ...("brand" in look ? { brandColor: look.brand } : {}),
            ...("locale" in look ? { locale: look.locale, messages: { ar: arabic } } : {}),
          },
        })
        const context: BrowserContext = await browser.newContext({
          viewport: { width: look.width, height: 800 },
          colorScheme: look.media,
        })
        try {
          const page = await context.newPage()
          for (const [name, path] of pages) {
            await page.goto(`${origin}${path}`)
            for (const violation of await axe(page))
              found.push({ look: look.name, page: name, violation })
            // Nothing wider than the screen (WCAG 1.4.10 Reflow: no sideways scrolling).
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - window.innerWidth,
            )
            if (overflow > 0) overflows.push(`${name} (${look.name}): ${overflow} px too wide`)
          }
          await signIn(page)
          await page.goto(`${origin}/auth/signout`)
          for (const violation of await axe(page))
            found.push({ look: look.name, page: "sign-out, signed in", violation })
        } finally {
          await context.close()
        }
      }
      const byRule = new Map<string, { impact: string | null; count: number; where: Set<string> }>()
      for (const { look, page, violation } of found) {
        const entry = byRule.get(violation.id) ?? {
          impact: violation.impact,
          count: 0,
          where: new Set(),
        }
        entry.count += violation.nodes.length
        entry.where.add(`${page} (${look})`)
        byRule.set(violation.id, entry)
      }
      if (process.env.AXE_REPORT) {
        for (const [rule, { impact, count, where }] of byRule)
          console.log(
            `${rule} [${impact}] ${count} nodes: ${[...where].slice(0, 4).join("; ")}${where.size > 4 ? ` (+${where.size - 4})` : ""}`,
          )
        if (!byRule.size) console.log("axe: no violations")
      }
      // Every violation counts, whatever axe's impact: a moderate one (a missing landmark,
      // a skipped heading level) is still a WCAG failure.
      expect(
        found.map(
          (f) => `${f.page} (${f.look}): ${f.violation.id} ${JSON.stringify(f.violation.nodes)}`,
        ),
      ).toEqual([])
      expect(overflows).toEqual([])
    },
  )

  test(
    "the code form, the confirm-link page and the two-factor page pass axe too, errors included",
    { timeout: 240_000 },
    async () => {
      let link = ""
      const codes = Email({
        id: "code",
        name: "Code",
        method: "both",
        confirmLink: true,
        sendVerificationRequest: ({ url }) => void (link = url),
      })
      const found: string[] = []
      for (const look of looks.filter((l) => l.width === 390)) {
        current = config({
          session: { strategy: "jwt" },
          providers: [credentialsProvider(), codes],
          theme: {
            colorScheme: look.theme,
            ...("locale" in look ? { locale: look.locale, messages: { ar: arabic } } : {}),
          },
        })
        await enableTwoFactor(current, (await signInHere(current)).jar)
        const context = await browser.newContext({
          viewport: { width: look.width, height: 800 },
          colorScheme: look.media,
        })
        const check = async (page: Page, name: string) => {
          for (const v of await axe(page))
            found.push(`${name} (${look.name}): ${v.id} ${JSON.stringify(v.nodes)}`)
        }
        // axe does not check that an error names its field: the code field (focused when the
        // page opens) must be marked invalid and described by the error, so a screen reader
        // reads the error with the field (an alert already on the page at load is not announced).
        const errorOf = (page: Page, field: string) =>
          page.evaluate((id) => {
            const input = document.getElementById(id)!
            const described = input.getAttribute("aria-describedby")
            return {
              focused: document.activeElement === input,
              invalid: input.getAttribute("aria-invalid"),
              description: described && document.getElementById(described)?.textContent,
              role: described && document.getElementById(described)?.getAttribute("role"),
            }
          }, field)
        try {
          const page = await context.newPage()
          await page.goto(`${origin}/auth/signin`)
          await page.fill("#input-email-for-code-provider", "eve@example.com")
          await Promise.all([
            page.waitForURL(/\/auth\/verify-request/),
            page.click("form[action$='/signin/code'] button[type=submit]"),
          ])
          await check(page, "code form")
          expect(await errorOf(page, "verify-code")).toMatchObject({
            invalid: null,
            description: null,
          })
          await page.fill("#verify-code", "00000000")
          await Promise.all([page.waitForURL(/error=/), page.press("#verify-code", "Enter")])
          expect(await page.getByRole("alert").count()).toBe(1)
          expect(await errorOf(page, "verify-code")).toEqual({
            focused: true,
            invalid: "true",
            description: await page.getByRole("alert").textContent(),
            role: "alert",
          })
          await check(page, "code form, wrong code")
          await page.goto(link)
          expect(await page.locator("form p").textContent()).toContain("eve@example.com")
          await check(page, "confirm-link")

          await page.goto(`${origin}/auth/signin`)
          await page.fill("#input-username-for-credentials-provider", "ada")
          await page.fill("#input-password-for-credentials-provider", "correct horse")
          await Promise.all([
            page.waitForURL(/\/auth\/two-factor/),
            page.press("#input-password-for-credentials-provider", "Enter"),
          ])
          await check(page, "two-factor")
          await page.fill("#two-factor-code", "000000")
          await Promise.all([
            page.waitForURL(/error=TwoFactor/),
            page.press("#two-factor-code", "Enter"),
          ])
          expect(await page.getByRole("alert").count()).toBe(1)
          expect(await errorOf(page, "two-factor-code")).toEqual({
            focused: true,
            invalid: "true",
            description: await page.getByRole("alert").textContent(),
            role: "alert",
          })
          await check(page, "two-factor, wrong code")
        } finally {
          await context.close()
        }
      }
      expect(found).toEqual([])
    },
  )

  test("the keyboard alone reaches every control, each with a visible focus ring, and signs in", async () => {
    current = config()
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(`${origin}/auth/signin`)
      const stops: { id: string; tag: string; outline: string; width: number }[] = []
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press("Tab")
        const stop = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement
          const style = getComputedStyle(element)
          return {
            id: element.id || element.textContent || "",
            tag: element.tagName,
            outline: style.outlineStyle,
            width: parseFloat(style.outlineWidth),
          }
        })
        stops.push(stop)
        if (stop.id === "input-password-for-credentials-provider") break
      }
      // Every method in order: two OAuth buttons, the shared e-mail field and its two buttons,
      // then the credentials fields.
      expect(stops.map((s) => s.tag)).toEqual([
        "BUTTON",
        "BUTTON",
        "INPUT",
        "BUTTON",
        "BUTTON",
        "INPUT",
        "INPUT",
      ])
      for (const stop of stops) {
        expect(stop.outline, stop.id).not.toBe("none")
        expect(stop.width, stop.id).toBeGreaterThanOrEqual(2)
      }
      // Back to the username with Shift+Tab; type, Tab, type, Enter.
      await page.keyboard.press("Shift+Tab")
      await page.keyboard.type("ada")
      await page.keyboard.press("Tab")
      await page.keyboard.type("correct horse")
      await Promise.all([page.waitForURL(`${origin}/`), page.keyboard.press("Enter")])
      const session = await page.evaluate(async () => (await fetch("/auth/session")).json())
      expect(session.user.email).toBe(ADA.email)
    } finally {
      await context.close()
    }
  })

  test("a failed sign-in is announced in an alert that says what to do", async () => {
    current = config()
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(`${origin}/auth/signin`)
      await page.fill("#input-username-for-credentials-provider", "ada")
      await page.fill("#input-password-for-credentials-provider", "wrong")
      await Promise.all([
        page.waitForURL(/error=CredentialsSignin/),
        page.press("#input-password-for-credentials-provider", "Enter"),
      ])
      const alerts = page.getByRole("alert")
      await expect.poll(() => alerts.count()).toBe(1)
      expect(await alerts.textContent()).toBe(
        "Sign-in failed. Check that the details you entered are correct.",
      )
    } finally {
      await context.close()
    }
  })

  test("a button shows that its request is under way", async () => {
    let release!: () => void
    const answered = new Promise<void>((resolve) => (release = resolve))
    current = config({
      providers: [
        credentialsProvider({
          async authorize() {
            await answered
            return { ...ADA }
          },
        }),
      ],
    })
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      // What the button looks like once submitted, told by the page (Playwright cannot look
      // while a navigation is pending).
      const seen: { text: string; busy: string | null; disabled: boolean }[] = []
      await page.exposeFunction("reportButton", (state: (typeof seen)[number]) => seen.push(state))
      await page.goto(`${origin}/auth/signin`)
      await page.evaluate(() =>
        document.addEventListener("submit", (event) => {
          const button = (event as SubmitEvent).submitter as HTMLButtonElement
          const report = (window as unknown as { reportButton: (s: unknown) => void }).reportButton
          report({
            text: button.textContent,
            busy: button.getAttribute("aria-busy"),
            disabled: button.disabled,
          })
        }),
      )
      await page.fill("#input-username-for-credentials-provider", "ada")
      const button = page.locator("form.provider button[type=submit]")
      expect(await button.textContent()).toBe("Sign in with Credentials")
      await button.click({ noWaitAfter: true })
      await expect.poll(() => seen).toEqual([{ text: "Signing in…", busy: "true", disabled: true }])
      release()
      await page.waitForURL(`${origin}/`)
    } finally {
      release()
      await context.close()
    }
  })

  test("the page speaks the browser's language; an app's Arabic reads right to left", async () => {
    current = config()
    const german = await browser.newContext({ locale: "de-CH" })
    try {
      const page = await german.newPage()
      await page.goto(`${origin}/auth/signin`)
      expect(await page.getAttribute("html", "lang")).toBe("de")
      expect(await page.textContent("h1")).toBe("Anmelden")
      expect(await page.title()).toBe("Anmelden")
    } finally {
      await german.close()
    }
    current = config({ theme: { locales: ["en", "ar"], messages: { ar: arabic } } })
    const arab = await browser.newContext({ locale: "ar-EG" })
    try {
      const page = await arab.newPage()
      for (const path of ["/auth/signin", "/auth/signout"]) {
        await page.goto(`${origin}${path}`)
        expect(await page.getAttribute("html", "lang")).toBe("ar")
        expect(await page.getAttribute("html", "dir")).toBe("rtl")
        expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe("rtl")
      }
      expect(await page.textContent("h1")).toBe(arabic["signOut.title"])
      expect(await page.textContent("main p")).toBe(arabic["signOut.signedOut"])
      // What the app did not translate comes from English.
      await page.goto(`${origin}/auth/signin`)
      expect((await page.textContent("form[data-provider=github] button"))?.trim()).toBe(
        "Sign in with GitHub",
      )
    } finally {
      await arab.close()
    }
  })

  test("signed out, the sign-out page says so and offers the way back and the way in", async () => {
    current = config()
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      await page.goto(
        `${origin}/auth/signout?callbackUrl=${encodeURIComponent(`${origin}/account`)}`,
      )
      expect(await page.textContent("main p")).toBe("You are not signed in.")
      expect(await page.locator("form").count()).toBe(0)
      await Promise.all([page.waitForURL(`${origin}/account`), page.click("text=Go back")])
      await page.goBack()
      await Promise.all([page.waitForURL(/\/auth\/signin/), page.click("text=Sign in")])
    } finally {
      await context.close()
    }
  })

  test("at an IP address the passkey button is off and the page says to use localhost", async () => {
    current = config()
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      const port = new URL(origin).port
      await page.goto(`http://127.0.0.1:${port}/auth/signin`)
      expect(await page.isDisabled("button[data-webauthn-provider=passkey]")).toBe(true)
      expect(await page.textContent(".notice")).toBe(
        "Passkeys don't work at an IP address such as 127.0.0.1. Open this page at localhost or at the site's domain name instead.",
      )
      // The other methods still work there.
      expect(await page.isDisabled("#signin-email button[type=submit]")).toBe(false)
    } finally {
      await context.close()
    }
  })

  test("no built-in page makes the browser ask for /favicon.ico", async () => {
    current = config()
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      const before = server.paths.length
      for (const [, path] of pages) await page.goto(`${origin}${path}`)
      // A page without an icon of its own makes Chromium ask: once that request is in, any a
      // built-in page had made would be in too.
      await page.goto(`${origin}/`)
      const favicons = () => server.paths.slice(before).filter((p) => p === "/favicon.ico")
      await expect.poll(() => favicons().length).toBe(1)
      expect(server.paths.slice(before).at(-1)).toBe("/favicon.ico")
    } finally {
      await context.close()
    }
  })
})
