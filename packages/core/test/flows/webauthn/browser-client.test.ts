/**
 * Passkeys end to end in real Chromium: the built-in sign-in page, its inlined
 * script (@simplewebauthn/browser), a real node:http server around `Auth()`, and
 * the DevTools Protocol's virtual authenticator (CTAP2, internal transport,
 * resident keys, user verification) standing in for Touch ID / Windows Hello.
 */
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import Credentials from "@tessera/core/providers/credentials"
import Email from "@tessera/core/providers/email"
import Passkey from "@tessera/core/providers/passkey"
import { CHROMIUM, hasChromium, launchChromium } from "../../harness/chromium.js"
import { serveAuth, type AuthServer } from "../../harness/http-server.js"
import { SECRET } from "../../harness/index.js"
import { codeFor } from "../../two-factor/helpers.js"

if (!hasChromium)
  console.warn(
    `[webauthn-browser] ${CHROMIUM} not found: the passkey end-to-end tests in real Chromium did NOT run`,
  )

const adapter = MemoryAdapter()
const { store } = adapter
const logged: string[] = []
const base = {
  secret: SECRET,
  trustHost: true,
  adapter,
  logger: {
    error: (e: Error & { type?: string }) => void logged.push(`${e.type}: ${e.message}`),
    warn() {},
  },
}
/**
 * Two configurations over the same database: with passkey autofill (the default)
 * and without. The virtual authenticator answers a pending autofill request at
 * once (as if the user picked the passkey from the suggestions), so the button
 * is exercised with autofill off.
 */
const withAutofill: AuthConfig = { ...base, providers: [Passkey()] }
const withoutAutofill: AuthConfig = {
  ...base,
  providers: [Passkey({ enableConditionalUI: false })],
}
let config = withAutofill

let server: AuthServer
let origin = ""
let browser: Browser

beforeAll(async () => {
  if (!hasChromium) return
  // WebAuthn needs a domain as rp id (not an IP) and a secure context: http://localhost is both.
  server = await serveAuth(() => config, {
    localhost: true,
    home: true,
    onError: (error) => logged.push(`server: ${String(error)}`),
  })
  origin = server.origin
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

interface Device {
  context: BrowserContext
  page: Page
  cdp: CDPSession
  authenticatorId: string
  /** Every webauthn-options answer the page received, in order. */
  responses: any[]
}

/** The webauthn-options answers so far (the route records them as they arrive). */
function optionsOf(d: Device): any[] {
  return d.responses
}

/** The latest webauthn-options answer, once it is `action`'s. */
async function lastOptions(
  d: Device,
  action: "register" | "authenticate" | "two-factor",
): Promise<any> {
  await expect.poll(() => optionsOf(d).at(-1)?.action).toBe(action)
  return optionsOf(d).at(-1)
}

/** A browser profile of its own (cookies) with a platform authenticator holding passkeys. */
async function device(): Promise<Device> {
  const context = await browser.newContext()
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send("WebAuthn.enable", { enableUI: false })
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  const responses: any[] = []
  // Taken in the route rather than from the page's "response" event: the page
  // navigates as soon as the ceremony ends, and a body read after that may be
  // gone (the record would then be null and the test flaky).
  await context.route("**/auth/webauthn-options/**", async (route) => {
    const response = await route.fetch()
    responses.push(await response.json())
    await route.fulfill({ response })
  })
  return { context, page, cdp, authenticatorId, responses }
}

async function credentialsOf(
  d: Device,
): Promise<{ credentialId: string; signCount: number; isResidentCredential: boolean }[]> {
  return (await d.cdp.send("WebAuthn.getCredentials", { authenticatorId: d.authenticatorId }))
    .credentials
}

async function sessionOf(page: Page): Promise<any> {
  return page.evaluate(async () => (await fetch("/auth/session")).json())
}

async function openSignIn(page: Page, wait = true): Promise<void> {
  await page.goto(`${origin}/auth/signin`)
  if (wait) await page.waitForSelector("form[data-webauthn-provider=passkey]")
}

/** Types an e-mail (or nothing) into the passkey form and presses its button; waits for the home page. */
async function usePasskeyButton(page: Page, email = ""): Promise<void> {
  await page.fill("#input-email-for-passkey-provider", email)
  await Promise.all([
    page.waitForURL(`${origin}/`),
    page.click("form[data-webauthn-provider=passkey] button[type=submit]"),
  ])
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${origin}/auth/signout`)
  await Promise.all([page.waitForURL(`${origin}/`), page.click("button[type=submit]")])
  expect(await sessionOf(page)).toBeNull()
}

const base64url = (b64: string) => Buffer.from(b64, "base64").toString("base64url")

describe.skipIf(!hasChromium)("passkeys in Chromium with a virtual authenticator", () => {
  it(
    "registers from the built-in page, signs out, signs in again, and the counter advances",
    { timeout: 60_000 },
    async () => {
      const ada = await device()
      try {
        await openSignIn(ada.page)
        await usePasskeyButton(ada.page, "ada@example.com")
        expect((await sessionOf(ada.page)).user.email).toBe("ada@example.com")

        // What the server stored matches what the authenticator holds.
        const user = [...store.users.values()].find((u) => u.email === "ada@example.com")!
        const [credential] = await credentialsOf(ada)
        expect(credential!.isResidentCredential).toBe(true)
        const stored = store.authenticators.get(base64url(credential!.credentialId))!
        expect(stored).toMatchObject({
          userId: user.id,
          transports: expect.stringContaining("internal"),
        })
        const counterAfterRegistration = stored.counter
        expect((await lastOptions(ada, "register")).options.authenticatorSelection).toMatchObject({
          residentKey: "required",
          userVerification: "required",
        })

        await signOut(ada.page)

        // Passkey autofill: opening the page arms a conditional request on the
        // e-mail field; the authenticator answers it and the page signs in.
        await openSignIn(ada.page, false)
        await ada.page.waitForURL(`${origin}/`)
        expect((await sessionOf(ada.page)).user.email).toBe("ada@example.com")
        await lastOptions(ada, "authenticate")
        const afterAutofill = store.authenticators.get(base64url(credential!.credentialId))!.counter
        expect(afterAutofill).toBeGreaterThan(counterAfterRegistration)
        await signOut(ada.page)

        // The button, with no e-mail typed: the discoverable credential names the user.
        config = withoutAutofill
        await openSignIn(ada.page)
        await usePasskeyButton(ada.page)
        expect((await sessionOf(ada.page)).user.email).toBe("ada@example.com")
        await lastOptions(ada, "authenticate")
        const after = store.authenticators.get(base64url(credential!.credentialId))!
        expect(after.counter).toBeGreaterThan(afterAutofill)
        expect(after.counter).toBe((await credentialsOf(ada))[0]!.signCount)

        // Signed in, the button adds a passkey; this device has one for the account already.
        await openSignIn(ada.page)
        await ada.page.click("form[data-webauthn-provider=passkey] button[type=submit]")
        await expect
          .poll(() => ada.page.textContent("[data-webauthn-error]"))
          .toBe("This device already has a passkey for this account. Use it to sign in.")
        expect(
          (await lastOptions(ada, "register")).options.excludeCredentials.map(
            (c: { id: string }) => c.id,
          ),
        ).toEqual([stored.credentialID])
        expect(store.authenticators.size).toBe(1)
      } finally {
        await ada.context.close()
      }

      // A second account on another device adds its own passkey without seeing the first.
      config = withAutofill
      const bob = await device()
      try {
        await openSignIn(bob.page)
        await usePasskeyButton(bob.page, "bob@example.com")
        expect((await sessionOf(bob.page)).user.email).toBe("bob@example.com")
        const bobUser = [...store.users.values()].find((u) => u.email === "bob@example.com")!
        const adaCredential = [...store.authenticators.values()].find(
          (a) => a.userId !== bobUser.id,
        )!

        // Signed in, Bob adds a second passkey from another authenticator on the same browser.
        await bob.cdp.send("WebAuthn.removeVirtualAuthenticator", {
          authenticatorId: bob.authenticatorId,
        })
        const second = await bob.cdp.send("WebAuthn.addVirtualAuthenticator", {
          options: {
            protocol: "ctap2",
            transport: "internal",
            hasResidentKey: true,
            hasUserVerification: true,
            isUserVerified: true,
            automaticPresenceSimulation: true,
          },
        })
        bob.authenticatorId = second.authenticatorId
        config = withoutAutofill
        await openSignIn(bob.page)
        await usePasskeyButton(bob.page)
        const registration = await lastOptions(bob, "register")
        expect(Buffer.from(registration.options.user.id, "base64url").toString()).toBe(bobUser.id)
        expect(registration.options.excludeCredentials).toHaveLength(1)
        expect(JSON.stringify(optionsOf(bob))).not.toContain(adaCredential.credentialID)

        const bobs = [...store.authenticators.values()].filter((a) => a.userId === bobUser.id)
        expect(bobs).toHaveLength(2)
        expect(store.users.size).toBe(2)
        expect((await sessionOf(bob.page)).user.email).toBe("bob@example.com")
      } finally {
        await bob.context.close()
      }
      expect(logged).toEqual([])
    },
  )

  it(
    "with an e-mail provider, one field serves both: the passkey button registers the typed address, the e-mail button mails it a link, a taken address is told what to do",
    { timeout: 60_000 },
    async () => {
      const mailed: string[] = []
      const sendVerificationRequest = ({ identifier }: { identifier: string }) =>
        void mailed.push(identifier)
      config = {
        ...base,
        providers: [Email({ sendVerificationRequest }), Passkey({ enableConditionalUI: false })],
      }
      const carol = await device()
      const field = "#input-email-for-email-provider"
      try {
        await carol.page.goto(`${origin}/auth/signin`)
        await carol.page.waitForSelector("button[data-webauthn-provider=passkey]")
        expect(await carol.page.locator("input[type=email]").count()).toBe(1)

        await carol.page.fill(field, "carol@example.com")
        await Promise.all([
          carol.page.waitForURL(`${origin}/`),
          carol.page.click("button[data-webauthn-provider=passkey]"),
        ])
        expect((await sessionOf(carol.page)).user.email).toBe("carol@example.com")
        expect(mailed).toEqual([])
        await signOut(carol.page)

        // The e-mail button, same field: a link is mailed, no passkey ceremony.
        const before = carol.responses.length
        await carol.page.goto(`${origin}/auth/signin`)
        await carol.page.fill(field, "dan@example.com")
        await Promise.all([
          carol.page.waitForURL(/\/auth\/verify-request/),
          carol.page.click("#signin-email button[type=submit]"),
        ])
        expect(mailed).toEqual(["dan@example.com"])
        expect(carol.responses.length).toBe(before)

        // An address an account already has: the page says to sign in first, then add the passkey.
        await adapter.createUser!({
          id: "erin",
          email: "erin@example.com",
          emailVerified: new Date(),
        })
        await carol.page.goto(`${origin}/auth/signin`)
        await carol.page.waitForSelector("button[data-webauthn-provider=passkey]")
        await carol.page.fill(field, "erin@example.com")
        await Promise.all([
          carol.page.waitForURL(/error=OAuthAccountNotLinked&code=passkey/),
          carol.page.click("button[data-webauthn-provider=passkey]"),
        ])
        expect(await carol.page.getByRole("alert").first().textContent()).toContain(
          "An account already uses this email address. Sign in to it first",
        )
        expect(await sessionOf(carol.page)).toBeNull()
      } finally {
        await carol.context.close()
        config = withAutofill
      }
    },
  )

  it(
    "a passkey as the second factor: the password, then the two-factor page's passkey button, signs in",
    { timeout: 60_000 },
    async () => {
      config = {
        ...base,
        session: { strategy: "jwt" },
        twoFactor: {},
        providers: [
          Passkey({ enableConditionalUI: false }),
          Credentials({
            credentials: { email: {}, password: { type: "password", label: "Password" } },
            authorize: async ({ email, password }) =>
              typeof email === "string" && password === "correct horse"
                ? await adapter.getUserByEmail!(email)
                : null,
          }),
        ],
      }
      const fay = await device()
      const { page } = fay
      try {
        await openSignIn(page)
        await usePasskeyButton(page, "fay@example.com")
        // A second factor for Fay: set up and confirmed as an app's settings page would.
        const secret = await page.evaluate(async () => {
          const { csrfToken } = await (await fetch("/auth/csrf")).json()
          const setup = await fetch("/auth/two-factor/setup", {
            method: "POST",
            body: new URLSearchParams({ csrfToken }),
          })
          return (await setup.json()).secret as string
        })
        const enabled = await page.evaluate(
          async ([code]) => {
            const { csrfToken } = await (await fetch("/auth/csrf")).json()
            const body = new URLSearchParams({ csrfToken, code: code! })
            return (await fetch("/auth/two-factor/enable", { method: "POST", body })).status
          },
          [codeFor(secret)],
        )
        expect(enabled).toBe(200)
        await signOut(page)

        // The password stops at the two-factor page, which offers the passkey.
        await page.goto(`${origin}/auth/signin`)
        await page.fill("#input-email-for-credentials-provider", "fay@example.com")
        await page.fill("#input-password-for-credentials-provider", "correct horse")
        await Promise.all([
          page.waitForURL(`${origin}/auth/two-factor`),
          page.click(`form[action$="/auth/callback/credentials"] button[type=submit]`),
        ])
        expect(await sessionOf(page)).toBeNull()
        const button = page.locator("form[data-webauthn-action=two-factor] button")
        expect(await button.textContent()).toBe("Use a passkey")
        await Promise.all([page.waitForURL(`${origin}/`), button.click()])
        expect((await sessionOf(page)).user.email).toBe("fay@example.com")
        const asked = await lastOptions(fay, "two-factor")
        const fayId = (await adapter.getUserByEmail!("fay@example.com"))!.id
        const fays = [...store.authenticators.values()].filter((a) => a.userId === fayId)
        expect(asked.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual(
          fays.map((a) => a.credentialID),
        )
      } finally {
        await fay.context.close()
        config = withAutofill
      }
      expect(logged).toEqual([])
    },
  )
})
