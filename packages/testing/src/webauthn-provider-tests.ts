/**
 * The conformance suite of a passkey (WebAuthn) provider (usually reached through
 * `runProviderTests` with `webauthn`): the suite runs the provider with the in-memory adapter and
 * a software authenticator ({@link SoftAuthenticator}: real ES256 keys, real attestation objects,
 * real signed assertions) and drives `Auth()` with real `Request`s, as the built-in page's script
 * does (`webauthn-options`, then the callback), checking:
 *
 * - registration: `webauthn-options/<id>?action=register&email=…`, then the authenticator's
 *   answer posted with the CSRF token to `callback/<id>`, creates the user, links the account,
 *   stores the authenticator and signs the user in;
 * - authentication: in another browser, the registered passkey signs the same user in and its
 *   counter is stored;
 * - an answer for another origin or rp id (registration and authentication) ends on the sign-in
 *   page with `error=Callback`, no session, nothing stored, nothing logged at error level;
 * - a replayed assertion (the same challenge cookie and answer, sent again by whoever copied
 *   them, from a passkey whose counter stays 0) is refused;
 * - a post without the CSRF token ends with `error=Signin` and spends nothing: the same answer
 *   with the token then signs in;
 * - the callback answers only POST (a GET is a 405 with `Allow: POST`);
 * - the built-in sign-in page shows the provider's passkey form and its script.
 *
 * The app is at `http://localhost:3000` (the default relying party: rp id `localhost`) and the
 * provider keeps the default `getUserInfo` (the e-mail address from the query).
 *
 * @example
 * ```ts
 * import { runProviderTests } from "@tessera/testing"
 * import Passkey from "@tessera/core/providers/passkey"
 *
 * runProviderTests({ provider: Passkey, webauthn: {} })
 * ```
 * @module
 */
import { describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { WebAuthnConfig, WebAuthnUserConfig } from "@tessera/core/providers"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import { AppBrowser, setsSession } from "./browser.js"
import { MemoryAdapter } from "./memory-adapter.js"
import {
  SoftAuthenticator,
  type AuthenticationOptionsJSON,
  type CeremonyOverrides,
  type RegistrationOptionsJSON,
} from "./webauthn-authenticator.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "tessera-provider-tests-secret-0123456789abcdef"
const REFUSED = `${ORIGIN}/auth/signin?error=Callback`

/**
 * Options of {@link runWebAuthnProviderTests}.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 * @see [docs/passkeys.md: the protocol](https://github.com/tessera-auth/tessera/blob/main/docs/passkeys.md#the-protocol-for-your-own-ui)
 */
export interface WebAuthnProviderTestOptions {
  /** The provider factory (the module's default export). */
  provider: (options?: WebAuthnUserConfig) => WebAuthnConfig
  /** What marks the suite as the passkey one; factory options in `options`. */
  webauthn: { options?: WebAuthnUserConfig }
  /** The `describe` block's name. Default `provider <id>`. */
  name?: string
}

/** An answer of the authenticator, posted as the built-in page's script posts it. */
type Ceremony = { action: "register" | "authenticate"; data: unknown }

/**
 * Registers the conformance tests of a passkey (WebAuthn) provider (also reached through
 * `runProviderTests` with `webauthn`).
 *
 * @param spec The provider factory, and its options.
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 * @see [Web Authentication Level 3 §7, Relying Party Operations](https://www.w3.org/TR/webauthn-3/#sctn-rp-operations)
 */
export function runWebAuthnProviderTests(spec: WebAuthnProviderTestOptions): void {
  const made = spec.provider({ ...spec.webauthn.options })
  const id = made.id

  /** A fresh app: its own memory adapter, rate-limit counters and error log. */
  function setup() {
    const errors: Error[] = []
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
      rateLimit: { store: new MemoryRateLimitStore() },
      providers: [made],
    }
    const browser = () => new AppBrowser(config, ORIGIN)
    return { config, store: adapter.store, errors, browser }
  }

  async function options(browser: AppBrowser, query: Record<string, string>) {
    const response = await browser.request(
      `/auth/webauthn-options/${id}?${new URLSearchParams(query)}`,
    )
    expect(response.status).toBe(200)
    return (await response.json()) as {
      action: string
      options: RegistrationOptionsJSON & AuthenticationOptionsJSON
    }
  }

  /** Asks for registration options for `email` and answers them with `authenticator`. */
  async function registration(
    browser: AppBrowser,
    authenticator: SoftAuthenticator,
    email: string,
    overrides: CeremonyOverrides = {},
  ): Promise<Ceremony> {
    const answer = await options(browser, { action: "register", email })
    expect(answer.action).toBe("register")
    const data = authenticator.register(answer.options, { origin: ORIGIN, ...overrides })
    return { action: "register", data }
  }

  async function authentication(
    browser: AppBrowser,
    authenticator: SoftAuthenticator,
    overrides: CeremonyOverrides = {},
  ): Promise<Ceremony> {
    const answer = await options(browser, { action: "authenticate" })
    expect(answer.action).toBe("authenticate")
    const data = authenticator.authenticate(answer.options, { origin: ORIGIN, ...overrides })
    return { action: "authenticate", data }
  }

  /** POSTs the answer to `callback/<id>` (with a CSRF token unless `csrfToken: null`). */
  async function finish(
    browser: AppBrowser,
    { action, data }: Ceremony,
    csrfToken: string | null | undefined = undefined,
  ) {
    const token = csrfToken === undefined ? await browser.csrf() : csrfToken
    const body: Record<string, string> = {
      action,
      data: JSON.stringify(data),
      callbackUrl: `${ORIGIN}/dashboard`,
    }
    if (token !== null) body.csrfToken = token
    return browser.request(`/auth/callback/${id}`, { body })
  }

  /** An app with one user who registered a passkey, signed out (a browser that has no cookies). */
  async function registered(authenticator = new SoftAuthenticator()) {
    const app = setup()
    const first = app.browser()
    const done = await finish(first, await registration(first, authenticator, "ada@example.test"))
    expect(done.status, app.errors.map((e) => e.message).join("; ")).toBe(302)
    const [credentialId] = authenticator.credentials.keys()
    return { ...app, authenticator, credentialId: credentialId! }
  }

  async function expectRefused(browser: AppBrowser, response: Response, errors: Error[]) {
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(REFUSED)
    expect(setsSession(response)).toBe(false)
    expect(await browser.session()).toBeNull()
    expect(errors).toEqual([])
  }

  describe(spec.name ?? `provider ${id}`, () => {
    test("registration creates the user and the authenticator, and signs in", async () => {
      const { browser, store, errors } = setup()
      const ada = browser()
      const authenticator = new SoftAuthenticator()
      const ceremony = await registration(ada, authenticator, "ada@example.test")
      const done = await finish(ada, ceremony)
      expect(done.status, errors.map((e) => e.message).join("; ")).toBe(302)
      expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
      expect(setsSession(done)).toBe(true)
      expect((await ada.session()).user).toMatchObject({ email: "ada@example.test" })

      const [user] = [...store.users.values()]
      expect(store.users.size).toBe(1)
      // A passkey does not prove the address.
      expect(user).toMatchObject({ email: "ada@example.test", emailVerified: null })
      const [credentialId] = authenticator.credentials.keys()
      expect(store.authenticators.get(credentialId!)).toMatchObject({
        credentialID: credentialId,
        userId: user!.id,
        counter: 0,
      })
      expect([...store.accounts.values()]).toEqual([
        expect.objectContaining({
          userId: user!.id,
          type: "webauthn",
          provider: id,
          providerAccountId: credentialId,
        }),
      ])
      expect(errors).toEqual([])
    })

    test("the registered passkey signs the same user in, in another browser", async () => {
      const { browser, store, errors, authenticator, credentialId } = await registered()
      const again = browser()
      const done = await finish(again, await authentication(again, authenticator))
      expect(done.status, errors.map((e) => e.message).join("; ")).toBe(302)
      expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
      expect(setsSession(done)).toBe(true)
      expect((await again.session()).user).toMatchObject({ email: "ada@example.test" })
      expect(store.users.size).toBe(1)
      expect(store.authenticators.get(credentialId)!.counter).toBe(1)
      expect(errors).toEqual([])
    })

    test("a registration for another origin or rp id is refused, and stores nothing", async () => {
      for (const overrides of [{ origin: "https://evil.example" }, { rpId: "evil.example" }]) {
        const { browser, store, errors } = setup()
        const mallory = browser()
        const ceremony = await registration(
          mallory,
          new SoftAuthenticator(),
          "ada@example.test",
          overrides,
        )
        await expectRefused(mallory, await finish(mallory, ceremony), errors)
        expect(store.users.size + store.accounts.size + store.authenticators.size).toBe(0)
      }
    })

    test("an assertion for another origin or rp id is refused", async () => {
      const { browser, store, errors, authenticator, credentialId } = await registered()
      for (const overrides of [{ origin: "https://evil.example" }, { rpId: "evil.example" }]) {
        const mallory = browser()
        const ceremony = await authentication(mallory, authenticator, overrides)
        await expectRefused(mallory, await finish(mallory, ceremony), errors)
      }
      expect(store.authenticators.get(credentialId)!.counter).toBe(0)
    })

    test("a replayed assertion (same challenge, same answer) is refused", async () => {
      // A passkey whose counter stays 0, as most synced ones: only the spent challenge stops it.
      const { browser, errors, authenticator } = await registered(
        new SoftAuthenticator({ counterStep: 0 }),
      )
      const ada = browser()
      const ceremony = await authentication(ada, authenticator)
      const csrfToken = await ada.csrf()
      // Whoever copied the browser's cookies (the challenge's) and the answer.
      const copied = new Map(ada.jar)
      expect((await finish(ada, ceremony, csrfToken)).headers.get("location")).toBe(
        `${ORIGIN}/dashboard`,
      )
      const mallory = browser()
      for (const [name, value] of copied) mallory.jar.set(name, value)
      await expectRefused(mallory, await finish(mallory, ceremony, csrfToken), errors)
    })

    test("without the CSRF token nothing happens; with it the same answer signs in", async () => {
      const { browser, store, errors, authenticator, credentialId } = await registered()
      const ada = browser()
      const ceremony = await authentication(ada, authenticator)
      await ada.csrf()
      const refused = await finish(ada, ceremony, null)
      expect(refused.status).toBe(302)
      expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=Signin`)
      expect(setsSession(refused)).toBe(false)
      expect(await ada.session()).toBeNull()
      expect(store.authenticators.get(credentialId)!.counter).toBe(0)
      // The challenge was not spent: the answer still counts, sent as the page sends it.
      const done = await finish(ada, ceremony)
      expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
      expect((await ada.session()).user).toMatchObject({ email: "ada@example.test" })
      expect(errors).toEqual([])
    })

    test("the callback answers only POST", async () => {
      const { browser } = setup()
      const done = await browser().request(`/auth/callback/${id}?action=authenticate&data=%7B%7D`)
      expect(done.status).toBe(405)
      expect(done.headers.get("allow")).toBe("POST")
    })

    test("the sign-in page shows the passkey form and its script", async () => {
      const { browser } = setup()
      const page = await browser().request("/auth/signin")
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toContain(`data-webauthn-provider="${id}"`)
      expect(html).toContain(`data-auth-url="${ORIGIN}/auth"`)
      for (const name of Object.keys(made.formFields ?? {}))
        expect(html).toMatch(new RegExp(`<input[^>]*name="${name}"`))
      // The passkey script (@simplewebauthn/browser and Tessera's client), under the CSP nonce.
      const nonce = /script-src 'nonce-([^']+)'/.exec(
        page.headers.get("content-security-policy") ?? "",
      )?.[1]
      expect(nonce).toBeDefined()
      const scripts = [...html.matchAll(/<script nonce="([^"]*)">([\s\S]*?)<\/script>/g)]
      const passkeyScript = scripts.find(([, , body]) => body!.includes("SimpleWebAuthnBrowser"))
      expect(passkeyScript?.[1]).toBe(nonce)
      expect(passkeyScript?.[2]).toContain("data-webauthn-provider")
    })
  })
}
