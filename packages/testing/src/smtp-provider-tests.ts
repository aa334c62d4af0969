/**
 * The conformance suite of an e-mail provider that sends through an SMTP server with nodemailer
 * (`Nodemailer`, and `Email` with its default sender; usually reached through `runProviderTests`
 * with `smtp`): the provider's `server` is a mail sink on loopback (`startMailSink`), and the
 * suite drives `Auth()` with real `Request`s, checking:
 *
 * - POST `/auth/signin/<id>` mails one message, to the address typed, from the provider's `from`,
 *   whose link (in the text and the HTML) signs the user in with that address;
 * - a recipient the server refuses ends the sign-in with `error=EmailSignin`, no session, and
 *   neither the address nor the link's token in anything logged.
 *
 * @example
 * ```ts
 * import { runProviderTests } from "@tessera/testing"
 * import Nodemailer from "@tessera/core/providers/nodemailer"
 *
 * runProviderTests({ provider: Nodemailer, smtp: {} })
 * ```
 * @module
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { AuthConfig } from "@tessera/core"
import type { EmailConfig } from "@tessera/core/providers"
import { AppBrowser, setsSession } from "./browser.js"
import { startMailSink, type MailSink } from "./mail-sink.js"
import { MemoryAdapter } from "./memory-adapter.js"
import { standInTeardown, type SuiteLifetime } from "./running-vitest.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "tessera-provider-tests-secret-0123456789abcdef"

/**
 * Options of {@link runSmtpProviderTests}.
 *
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 */
export interface SmtpProviderTestOptions {
  /** The provider factory (the module's default export); the suite passes `server` and `from`. */
  provider: (options: any) => EmailConfig
  /** What marks the suite as the SMTP one; further factory options in `options`. */
  smtp: { options?: Record<string, unknown> }
  /** The `describe` block's name. Default `provider <id>`. */
  name?: string
}

/**
 * Registers the conformance tests of an e-mail provider that sends through SMTP (also reached
 * through `runProviderTests` with `smtp`).
 *
 * @param spec The provider factory.
 * @see [docs/testing.md: testing your own provider](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-provider)
 * @see [RFC 5321, Simple Mail Transfer Protocol](https://www.rfc-editor.org/rfc/rfc5321.html)
 */
export function runSmtpProviderTests(spec: SmtpProviderTestOptions): void {
  const from = "Acme <no-reply@acme.example>"
  const id = spec.provider({ ...spec.smtp.options }).id
  let sink!: MailSink

  beforeAll(async () => {
    sink = await startMailSink({ rejectRecipient: (address) => address.startsWith("refused-") })
  })
  // Until the end of the file when the main entry runs the suite (`running-vitest.ts`).
  ;((spec as SuiteLifetime)[standInTeardown] ?? afterAll)(() => sink?.stop())

  function setup() {
    const logged: unknown[] = []
    const record = (...args: unknown[]) => void logged.push(...args)
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      logger: { error: record, warn: record, debug: record },
      providers: [spec.provider({ ...spec.smtp.options, server: sink.url, from })],
    }
    return { browser: new AppBrowser(config, ORIGIN), logged }
  }

  const to = (prefix = "ada") => `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.test`

  describe(spec.name ?? `provider ${id}`, () => {
    test("mails the link through the server; the link signs the user in", async () => {
      const address = to()
      const { browser } = setup()
      const start = await browser.startSignIn(id, { fields: { email: address } })
      expect(start.status).toBe(302)
      expect(start.headers.get("location")).toBe(
        `${ORIGIN}/auth/verify-request?provider=${id}&type=email`,
      )
      const mail = await sink.waitForMessage((m) => m.to.includes(address))
      expect(mail.headers.from).toContain("no-reply@acme.example")
      const pattern = new RegExp(`${ORIGIN}/auth/callback/${id}\\?[^\\s"'<>]+`)
      const link = new URL(pattern.exec(mail.text)![0])
      expect(link.searchParams.get("email")).toBe(address)
      expect(mail.html.replaceAll("&amp;", "&")).toContain(link.href)
      const done = await browser.request(link.href)
      expect(setsSession(done)).toBe(true)
      expect((await browser.session()).user.email).toBe(address)
    })

    test("a refused recipient: EmailSignin, no session, no address or token logged", async () => {
      const address = to("refused")
      const { browser, logged } = setup()
      const start = await browser.startSignIn(id, { fields: { email: address } })
      expect(start.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=EmailSignin`)
      expect(await browser.session()).toBeNull()
      expect(sink.messages.some((m) => m.to.includes(address))).toBe(false)
      const text = logged
        .map((entry) =>
          entry instanceof Error ? `${entry.message}\n${String(entry.stack)}` : String(entry),
        )
        .join("\n")
      expect(text).not.toContain(address)
    })
  })
}
