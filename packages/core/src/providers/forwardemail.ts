/**
 * E-mail ("magic link") sign-in, sent through Forward Email's API.
 *
 * Use the API token of your Forward Email account and a domain set up there
 * (with outbound SMTP enabled). `apiKey` defaults to `AUTH_FORWARDEMAIL_KEY`;
 * `from` defaults to `no-reply@<your host>`. Needs a database adapter, for the
 * single-use tokens.
 *
 * @example
 * ```ts
 * import ForwardEmail from "@tessera/core/providers/forwardemail"
 * ForwardEmail({ apiKey: process.env.AUTH_FORWARDEMAIL_KEY, from: "no-reply@acme.example" })
 * ```
 *
 * The request: `POST https://api.forwardemail.net/v1/emails` with HTTP Basic
 * credentials `<token>:` (the token as user name, no password) and JSON
 * `{ from, to, subject, html, text }`. Any answer but a 2xx fails the sign-in
 * with `error=EmailSignin`.
 * @see https://forwardemail.net/en/email-api#outbound-emails
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

const SERVICE = "Forward Email"

/** The default `sendVerificationRequest` of `ForwardEmail`. */
export async function sendWithForwardEmail(
  params: EmailSendVerificationRequestParams,
): Promise<void> {
  const { apiKey, from, to, message } = mailParts(params, SERVICE)
  await sendToMailApi(params, SERVICE, "https://api.forwardemail.net/v1/emails", {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`${apiKey}:`)}`, "content-type": "application/json" },
    body: JSON.stringify({ from, to, ...message }),
  })
}

// Without its API key nothing can be sent: a missing one is refused at start.
withRequiredOptions(sendWithForwardEmail)

/**
 * E-mail ("magic link") sign-in, sent through Forward Email's API.
 *
 * @param config `apiKey` (default `AUTH_FORWARDEMAIL_KEY`), `from`, and any e-mail provider option to override.
 * @see [Auth.js: ForwardEmail](https://authjs.dev/reference/core/providers/forwardemail)
 * @see https://forwardemail.net/en/email-api#outbound-emails
 */
export default function ForwardEmail(config: EmailUserConfig = {}): EmailConfig {
  return mailApiProvider(
    { id: "forwardemail", name: "Forward Email", sendVerificationRequest: sendWithForwardEmail },
    config,
  )
}
