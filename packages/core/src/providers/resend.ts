/**
 * E-mail ("magic link") sign-in, sent through Resend's HTTP API.
 *
 * Create an API key with sending access and verify the domain you send from at
 * resend.com. `apiKey` defaults to `AUTH_RESEND_KEY`; `from` must be an address
 * on a verified domain (default `no-reply@<your host>`). Like every e-mail
 * provider it needs a database adapter, for the single-use tokens.
 *
 * @example
 * ```ts
 * import Resend from "@tessera/core/providers/resend"
 * Resend({ apiKey: process.env.AUTH_RESEND_KEY, from: "Acme <no-reply@acme.example>" })
 * ```
 *
 * The request: `POST https://api.resend.com/emails` with `Authorization: Bearer
 * <key>` and JSON `{ from, to, subject, html, text }` (the default sign-in
 * message). Any answer but a 2xx fails the sign-in with `error=EmailSignin`; the
 * logged error names Resend's answer, never the key or the link.
 * @see https://resend.com/docs/api-reference/emails/send-email
 * @see https://resend.com/docs/api-reference/errors
 * @module
 */
import {
  mailApiProvider,
  withRequiredOptions,
  mailParts,
  sendToMailApi,
  type EmailConfig,
  type EmailSendVerificationRequestParams,
  type EmailUserConfig,
} from "./email.js"

const SERVICE = "Resend"

/** The default `sendVerificationRequest` of `Resend`. */
export async function sendWithResend(params: EmailSendVerificationRequestParams): Promise<void> {
  const { apiKey, from, to, message } = mailParts(params, SERVICE)
  await sendToMailApi(params, SERVICE, "https://api.resend.com/emails", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ from, to, ...message }),
  })
}

// Without its API key nothing can be sent: a missing one is refused at start.
withRequiredOptions(sendWithResend)

/**
 * E-mail ("magic link") sign-in, sent through Resend's HTTP API.
 *
 * @param config `apiKey` (default `AUTH_RESEND_KEY`), `from`, and any e-mail provider option to override.
 * @see [Auth.js: Resend](https://authjs.dev/reference/core/providers/resend)
 * @see https://resend.com/docs/api-reference/emails/send-email
 * @see https://resend.com/docs/api-reference/errors
 */
export default function Resend(config: EmailUserConfig = {}): EmailConfig {
  return mailApiProvider(
    { id: "resend", name: "Resend", sendVerificationRequest: sendWithResend },
    config,
  )
}
