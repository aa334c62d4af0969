/**
 * The conformance suite of a credentials provider (usually reached through `runProviderTests`
 * with `credentials`): the suite gives the factory its own fields and `authorize` (one user with
 * one password) and drives `Auth()` with real `Request`s, checking:
 *
 * - the right credentials, posted with the CSRF token to `callback/<id>`, sign the user in with
 *   the user `authorize` returned;
 * - wrong credentials end on the sign-in page with `error=CredentialsSignin&code=credentials`,
 *   no session, and nothing logged at error level;
 * - a post without the CSRF token never reaches `authorize`, and signs no one in;
 * - the callback answers only POST (a GET is a 405 with `Allow: POST`);
 * - the built-in sign-in page shows the provider's fields.
 *
 * @example
 * ```ts
 * import { runProviderTests } from "@tessera/testing"
 * import Credentials from "@tessera/core/providers/credentials"
 *
 * runProviderTests({ provider: Credentials, credentials: {} })
 * ```
 * @module
 */
import { describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { CredentialsConfig } from "@tessera/core/providers"
import { AppBrowser, setsSession } from "./browser.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "tessera-provider-tests-secret-0123456789abcdef"

/**
 * Options of {@link runCredentialsProviderTests}.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface CredentialsProviderTestOptions {
  /** The provider factory (the module's default export); the suite passes `credentials` and `authorize`. */
  provider: (options: any) => CredentialsConfig
  /** What marks the suite as the credentials one; further factory options in `options`. */
  credentials: { options?: Record<string, unknown> }
  /** The `describe` block's name. Default `provider <id>`. */
  name?: string
}

/**
 * Registers the conformance tests of a credentials provider (also reached through
 * `runProviderTests` with `credentials`).
 *
 * @param spec The provider factory.
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export function runCredentialsProviderTests(spec: CredentialsProviderTestOptions): void {
  const user = { id: "user-ada", name: "Ada Lovelace", email: "ada@example.test" }
  const password = "correct horse battery staple"
  let authorizeCalls = 0
  const made = spec.provider({
    ...spec.credentials.options,
    credentials: {
      username: { label: "Username" },
      password: { label: "Password", type: "password" },
    },
    authorize(credentials: Record<string, unknown>) {
      authorizeCalls++
      return credentials.username === "ada" && credentials.password === password ? user : null
    },
  })
  const id = made.id

  function setup() {
    const errors: Error[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
      providers: [made],
    }
    return { browser: new AppBrowser(config, ORIGIN), errors }
  }

  async function post(browser: AppBrowser, fields: Record<string, string>) {
    return browser.request(`/auth/callback/${id}`, {
      body: { ...fields, callbackUrl: `${ORIGIN}/dashboard` },
    })
  }

  describe(spec.name ?? `provider ${id}`, () => {
    test("the right credentials sign the user in", async () => {
      const { browser, errors } = setup()
      const csrfToken = await browser.csrf()
      const done = await post(browser, { csrfToken, username: "ada", password })
      expect(done.status, errors.map((e) => e.message).join("; ")).toBe(302)
      expect(done.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
      expect(setsSession(done)).toBe(true)
      const session = await browser.session()
      expect(session.user).toMatchObject({ name: user.name, email: user.email })
    })

    test("wrong credentials: CredentialsSignin on the sign-in page, no session", async () => {
      const { browser, errors } = setup()
      const csrfToken = await browser.csrf()
      const done = await post(browser, { csrfToken, username: "ada", password: "wrong" })
      expect(done.status).toBe(302)
      const location = new URL(done.headers.get("location")!)
      expect(location.pathname).toBe("/auth/signin")
      expect(location.searchParams.get("error")).toBe("CredentialsSignin")
      expect(location.searchParams.get("code")).toBe("credentials")
      expect(setsSession(done)).toBe(false)
      expect(await browser.session()).toBeNull()
      expect(errors).toEqual([])
    })

    test("without the CSRF token authorize is not called", async () => {
      const { browser } = setup()
      await browser.csrf()
      const before = authorizeCalls
      const done = await post(browser, { username: "ada", password })
      expect(authorizeCalls).toBe(before)
      expect(setsSession(done)).toBe(false)
      expect(await browser.session()).toBeNull()
    })

    test("the callback answers only POST", async () => {
      const { browser } = setup()
      const done = await browser.request(`/auth/callback/${id}?username=ada&password=x`)
      expect(done.status).toBe(405)
      expect(done.headers.get("allow")).toBe("POST")
    })

    test("the sign-in page shows the provider's fields", async () => {
      const { browser } = setup()
      const page = await browser.request("/auth/signin")
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toMatch(/<input[^>]*name="username"/)
      expect(html).toMatch(
        /<input[^>]*name="password"[^>]*type="password"|<input[^>]*type="password"[^>]*name="password"/,
      )
      expect(html).toContain(`/auth/callback/${id}`)
    })
  })
}
