/**
 * E-mail ("magic link") sign-in, sent through SendGrid's v3 Mail Send API.
 *
 * Create an API key with the "Mail Send" permission and a verified sender
 * (single sender or domain). `apiKey` defaults to `AUTH_SENDGRID_KEY`; `from`
 * (default `no-reply@<your host>`) may carry a display name,
 * `"Acme <no-reply@acme.example>"`, sent as SendGrid's `{ email, name }`. Needs
 * a database adapter, for the single-use tokens.
 *
 * @example
 * ```ts
 * import SendGrid from "@tessera/core/providers/sendgrid"
 * SendGrid({ apiKey: process.env.AUTH_SENDGRID_KEY, from: "Acme <no-reply@acme.example>" })
 * ```
 *
 * The request: `POST https://api.sendgrid.com/v3/mail/send` with `Authorization:
 * Bearer <key>` and JSON `{ personalizations: [{ to: [{ email }] }], from,
 * subject, content: [text/plain, text/html] }`. SendGrid answers 202 with no
 * body; anything but a 2xx fails the sign-in with `error=EmailSignin`.
 * @see https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
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

const SERVICE = "SendGrid"

/** `"Name <address>"` or `"address"` -> SendGrid's `{ email, name? }`. */
function sender(from: string): { email: string; name?: string } {
  const match = /^\s*(.*?)\s*<([^<>]+)>\s*$/.exec(from)
  if (!match) return { email: from.trim() }
  const name = match[1]!.replace(/^"(.*)"$/, "$1")
  return name ? { email: match[2]!, name } : { email: match[2]! }
}

/** The default `sendVerificationRequest` of `SendGrid`. */
export async function sendWithSendGrid(params: EmailSendVerificationRequestParams): Promise<void> {
  const { apiKey, from, to, message } = mailParts(params, SERVICE)
  const { subject, text, html } = message
  await sendToMailApi(params, SERVICE, "https://api.sendgrid.com/v3/mail/send", {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      personalizations: [{ to: [{ email: to }] }],
      from: sender(from),
      subject,
      content: [
        { type: "text/plain", value: text },
        { type: "text/html", value: html },
      ],
    }),
  })
}

// Without its API key nothing can be sent: a missing one is refused at start.
withRequiredOptions(sendWithSendGrid)

/**
 * E-mail ("magic link") sign-in, sent through SendGrid's v3 Mail Send API.
 *
 * @param config `apiKey` (default `AUTH_SENDGRID_KEY`), `from`, and any e-mail provider option to override.
 * @see [Auth.js: SendGrid](https://authjs.dev/reference/core/providers/sendgrid)
 * @see https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send
 */
export default function SendGrid(config: EmailUserConfig = {}): EmailConfig {
  return mailApiProvider(
    { id: "sendgrid", name: "SendGrid", sendVerificationRequest: sendWithSendGrid },
    config,
  )
}
