/**
 * The conformance suite of e-mail providers that send through an HTTP mail
 * API (Resend, SendGrid, Postmark, ...): a loopback stand-in answers as the
 * service, at its real URL, through the provider's `customFetch`. Usually
 * called through `runProviderTests`, with `api` instead of `authorization`.
 *
 * It drives `Auth()` with real `Request`s (and the memory adapter) and checks:
 *
 * - POST `/auth/signin/<id>` sends one request of the documented shape (your
 *   `check` asserts the auth header and the body fields) that carries the
 *   sign-in link, and the app answers with the verify-request page;
 * - following that link signs the user in with the address typed;
 * - the service's documented failure (non-2xx) ends the sign-in with
 *   `error=EmailSignin`, and neither the error `sendVerificationRequest`
 *   rejects with nor anything logged contains the API key or the link's token;
 * - without an API key nothing is sent.
 *
 * @example
 * ```ts
 * import { json } from "@tessera/testing"
 * import { runProviderTests } from "@tessera/testing/suites"
 * import Acme from "../src/acme-mail.js"
 *
 * runProviderTests({
 *   provider: Acme,
 *   api: {
 *     url: "https://api.acme.example/v1/send",
 *     check({ request, json, apiKey, to, link }) {
 *       expect(request.headers.get("authorization")).toBe(`Bearer ${apiKey}`)
 *       expect(json.to).toBe(to)
 *       expect(json.text).toContain(link.href)
 *     },
 *     success: () => json({ id: "msg_1" }),
 *     failure: () => json({ message: "invalid from address" }, 422),
 *   },
 * })
 * ```
 * @module
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { standInTeardown, type SuiteLifetime } from "./running-vitest.js"
import { customFetch, type AuthConfig } from "@tessera/core"
import { MemoryAdapter } from "./memory-adapter.js"
import type { EmailConfig } from "@tessera/core/providers"
import { AppBrowser, setsSession } from "./browser.js"
import { readForm, readJson, StandIn, type Recorded } from "./stand-in.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "tessera-provider-tests-secret-0123456789abcdef"

/**
 * The request the service received, with what the check needs to judge it.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface MailApiRequest {
  request: Recorded
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any
  /** The body parsed as a form (urlencoded or multipart). */
  form: URLSearchParams
  /** The sign-in link the request carries. */
  link: URL
  /** The address the user typed. */
  to: string
  apiKey: string
  /** The `from` the provider was given. */
  from: string
}

/**
 * Options of {@link runEmailProviderTests}: the provider and its mail API's request, success and
 * failure.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface EmailProviderTestOptions {
  /** The provider factory (the module's default export). */
  provider: (options: any) => EmailConfig
  /** Factory options besides `apiKey` and `from` (a region, a template id). */
  options?: Record<string, unknown>
  /** The `describe` block's name. Default `provider <id>`. */
  name?: string
  /** Default `tessera-test-api-key-0123456789`. */
  apiKey?: string
  /** Default `Acme <no-reply@acme.example>`. */
  from?: string
  /** The service's documented API. */
  api: {
    /** The endpoint (its query is ignored). */
    url: string
    /** Default POST. */
    method?: string
    /** Asserts the request has the documented shape. */
    check: (request: MailApiRequest) => void | Promise<void>
    /** The documented answer to an accepted message. */
    success: () => Response
    /** A documented refusal (non-2xx). */
    failure: () => Response
  }
  /** Names of tests not to run. */
  skipTests?: string[]
}

/**
 * What {@link runEmailProviderTests} returns, for tests of the provider's own quirks.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface EmailProviderTestHandle {
  /** Available once the suite's `beforeAll` ran. */
  readonly standIn: StandIn
  /** The provider as the suite configures it (`apiKey`, `from`, `customFetch`), plus `options`. */
  provider(options?: Record<string, unknown>): EmailConfig
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
}

/** Every string an error carries: message, stack, causes (nested), as logged. */
function errorText(error: unknown, depth = 0): string {
  if (depth > 5 || error === undefined || error === null) return ""
  if (typeof error !== "object") return String(error)
  const parts: string[] = []
  if (error instanceof Error) parts.push(error.message, String(error.stack))
  try {
    parts.push(JSON.stringify(error))
  } catch {
    // Circular: the message, stack and cause above say enough.
  }
  const cause = (error as { cause?: unknown }).cause
  parts.push(errorText(cause, depth + 1))
  if (cause && typeof cause === "object" && !(cause instanceof Error))
    for (const value of Object.values(cause)) parts.push(errorText(value, depth + 1))
  return parts.join("\n")
}

/**
 * Registers the conformance tests of an e-mail provider that sends through an HTTP mail API (also
 * reached through `runProviderTests` with `api`).
 *
 * @param spec The provider and its mail API.
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export function runEmailProviderTests(spec: EmailProviderTestOptions): EmailProviderTestHandle {
  const apiKey = spec.apiKey ?? "tessera-test-api-key-0123456789"
  const from = spec.from ?? "Acme <no-reply@acme.example>"
  const made = spec.provider({ ...spec.options, apiKey, from })
  const id = made.options?.id ?? made.id
  const method = (spec.api.method ?? "POST").toUpperCase()
  const skip = new Set(spec.skipTests)
  const linkPattern = new RegExp(
    `${escapeRegExp(`${ORIGIN}/auth/callback/${id}`)}\\?[^\\s"'<>\\\\]+`,
  )
  let standIn!: StandIn
  let answer: "success" | "failure" | "echo" = "success"

  beforeAll(async () => {
    standIn = await StandIn.start()
    standIn.on(method, spec.api.url, (request) => {
      if (answer === "success") return spec.api.success()
      if (answer === "failure") return spec.api.failure()
      // The worst service: it refuses and echoes the whole request back.
      const headers = Object.fromEntries(request.headers)
      return new Response(JSON.stringify({ headers, body: request.body }), { status: 400 })
    })
  })
  // Until the end of the file when the main entry runs the suite (`running-vitest.ts`).
  ;((spec as SuiteLifetime)[standInTeardown] ?? afterAll)(() => standIn?.stop())

  function provider(extra: Record<string, unknown> = {}): EmailConfig {
    return spec.provider({ ...spec.options, apiKey, from, [customFetch]: standIn.fetch, ...extra })
  }

  /** The provider as `Auth()` resolves it: the factory's defaults under the user's options. */
  function resolved(extra: Record<string, unknown> = {}): EmailConfig {
    const { options, ...defaults } = provider(extra)
    return { ...defaults, ...options }
  }

  function setup(extra: Record<string, unknown> = {}) {
    const errors: Error[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      logger: { error: (e: Error) => void errors.push(e), warn: () => {}, debug: () => {} },
      providers: [provider(extra)],
    }
    return { browser: new AppBrowser(config, ORIGIN), errors }
  }

  const to = () => `ada-${crypto.randomUUID().slice(0, 8)}@example.test`
  const maybe = (name: string, fn: () => Promise<void>) =>
    skip.has(name) ? test.skip(name, fn) : test(name, fn)

  describe(spec.name ?? `provider ${id}`, () => {
    maybe("sends the documented request; its link signs the user in", async () => {
      const address = to()
      const { browser, errors } = setup()
      const before = standIn.requests.length
      const start = await browser.startSignIn(id, { fields: { email: address } })
      expect(start.status, errors.map((e) => e.message).join("; ")).toBe(302)
      expect(start.headers.get("location")).toBe(
        `${ORIGIN}/auth/verify-request?provider=${id}&type=email`,
      )
      const sent = standIn.requests.slice(before)
      expect(sent).toHaveLength(1)
      const request = sent[0]!
      expect(request.method).toBe(method)
      expect(`${request.url.origin}${request.url.pathname}`).toBe(
        `${new URL(spec.api.url).origin}${new URL(spec.api.url).pathname}`,
      )
      const found = linkPattern.exec(request.body)
      expect(found, "the request carries no sign-in link").not.toBeNull()
      const link = new URL(found![0].replaceAll("&amp;", "&"))
      expect(link.searchParams.get("email")).toBe(address)
      await spec.api.check({
        request,
        json: readJson(request),
        form: await readForm(request),
        link,
        to: address,
        apiKey,
        from,
      })
      const done = await browser.request(link.href)
      expect(setsSession(done)).toBe(true)
      expect((await browser.session()).user.email).toBe(address)
    })

    maybe("a refused request fails the sign-in and never shows the API key", async () => {
      answer = "failure"
      try {
        const address = to()
        const { browser, errors } = setup()
        const before = standIn.requests.length
        const start = await browser.startSignIn(id, { fields: { email: address } })
        expect(start.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`)
        const sent = standIn.requests.slice(before)
        expect(sent).toHaveLength(1)
        const token = new URL(
          linkPattern.exec(sent[0]!.body)![0].replaceAll("&amp;", "&"),
        ).searchParams.get("token")!
        const logged = errors.map((e) => errorText(e)).join("\n")
        expect(logged).not.toContain(apiKey)
        expect(logged).not.toContain(token)

        const url = `${ORIGIN}/auth/callback/${id}?token=secret-token-value&email=${encodeURIComponent(address)}`
        const failure = await Promise.resolve(
          resolved().sendVerificationRequest({
            identifier: address,
            url,
            token: "secret-token-value",
            expires: new Date(Date.now() + 60_000),
            provider: resolved(),
            theme: {},
            request: new Request(ORIGIN),
          }),
        ).then(
          () => undefined,
          (error: unknown) => error,
        )
        expect(failure, "sendVerificationRequest resolved on a non-2xx answer").toBeInstanceOf(
          Error,
        )
        const text = errorText(failure)
        expect(text).not.toContain(apiKey)
        expect(text).not.toContain("secret-token-value")
      } finally {
        answer = "success"
      }
    })

    maybe("a refusal that echoes the request leaks neither the key nor the link", async () => {
      answer = "echo"
      try {
        const token = "secret-token-value-0123"
        const address = to()
        const url = `${ORIGIN}/auth/callback/${id}?token=${token}&email=${encodeURIComponent(address)}`
        const provider = resolved()
        const before = standIn.requests.length
        const failure = await Promise.resolve(
          provider.sendVerificationRequest({
            identifier: address,
            url,
            token,
            expires: new Date(Date.now() + 60_000),
            provider,
            theme: {},
            request: new Request(ORIGIN),
          }),
        ).then(
          () => undefined,
          (error: unknown) => error,
        )
        expect(failure).toBeInstanceOf(Error)
        const text = errorText(failure)
        const sent = standIn.requests.slice(before)[0]!
        const authorization = sent.headers.get("authorization")
        for (const secret of [apiKey, token, authorization?.slice(authorization.indexOf(" ") + 1)])
          if (secret) expect(text).not.toContain(secret)
      } finally {
        answer = "success"
      }
    })

    maybe("without an API key nothing is sent", async () => {
      const before = standIn.requests.length
      const keyless = { ...resolved(), apiKey: undefined } as EmailConfig
      await expect(
        Promise.resolve(
          keyless.sendVerificationRequest({
            identifier: "ada@example.test",
            url: `${ORIGIN}/auth/callback/${id}?token=t&email=ada%40example.test`,
            token: "t",
            expires: new Date(Date.now() + 60_000),
            provider: keyless,
            theme: {},
            request: new Request(ORIGIN),
          }),
        ),
      ).rejects.toThrow()
      expect(standIn.requests.length).toBe(before)
    })
  })

  return {
    get standIn() {
      return standIn
    },
    provider,
  }
}
