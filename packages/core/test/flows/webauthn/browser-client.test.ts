/**
 * Passkeys end to end in real Chromium: the built-in sign-in page, its inlined
 * script (@simplewebauthn/browser), a real node:http server around `Auth()`, and
 * the DevTools Protocol's virtual authenticator (CTAP2, internal transport,
 * resident keys, user verification) standing in for Touch ID / Windows Hello.
 */
import { existsSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Page,
} from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth, type AuthConfig } from "@tessera/core"
import { MemoryAdapter } from "@tessera/testing"
import Passkey from "@tessera/core/providers/passkey"
import { SECRET } from "../../harness/index.js"

const CHROMIUM = "/usr/bin/chromium"
const hasChromium = existsSync(CHROMIUM)
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

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v))
    else if (value !== undefined) headers.set(name, value)
  }
  const body =
    chunks.length && req.method !== "GET" && req.method !== "HEAD"
      ? Buffer.concat(chunks)
      : undefined
  return new Request(new URL(req.url!, origin), { method: req.method, headers, body })
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers["set-cookie"] = cookies
  res.writeHead(response.status, headers)
  res.end(Buffer.from(await response.arrayBuffer()))
}

let server: Server
let origin = ""
let browser: Browser

/** The app: `Auth()` under /auth, and a home page that shows who is signed in. */
async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = await toRequest(req, origin)
  if (new URL(request.url).pathname.startsWith("/auth/"))
    return send(res, await Auth(request, config as Omit<AuthConfig, "raw">))
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
  res.end("<!doctype html><title>Home</title><h1>Home</h1>")
}

beforeAll(async () => {
  if (!hasChromium) return
  server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      logged.push(`server: ${error}`)
      res.writeHead(500).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  // WebAuthn needs a domain as rp id (not an IP) and a secure context: http://localhost is both.
  origin = `http://localhost:${(server.address() as AddressInfo).port}`
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
      "--host-resolver-rules=MAP localhost 127.0.0.1",
    ],
  })
})

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
})

interface Device {
  context: BrowserContext
  page: Page
  cdp: CDPSession
  authenticatorId: string
  /** Every webauthn-options answer the page received, in order. */
  responses: Promise<any>[]
}

/** The webauthn-options answers so far (the listener records them as they arrive). */
async function optionsOf(d: Device): Promise<any[]> {
  return Promise.all(d.responses)
}

/** The latest webauthn-options answer, once it is `action`'s. */
async function lastOptions(d: Device, action: "register" | "authenticate"): Promise<any> {
  await expect.poll(async () => (await optionsOf(d)).at(-1)?.action).toBe(action)
  return (await optionsOf(d)).at(-1)
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
  const responses: Promise<any>[] = []
  page.on("response", (response) => {
    if (response.url().includes("/auth/webauthn-options/"))
      responses.push(response.json().catch(() => null))
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
          .toBe("This device already has a passkey for this account.")
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
        expect(JSON.stringify(await optionsOf(bob))).not.toContain(adaCredential.credentialID)

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
})
