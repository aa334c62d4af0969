/**
 * E-mail ("magic link") sign-in, sent through Postmark's Email API.
 *
 * Use the Server API token of a Postmark server and a confirmed sender signature
 * or domain. `apiKey` (the server token) defaults to `AUTH_POSTMARK_KEY`;
 * `from` defaults to `no-reply@<your host>`. Messages go to the transactional
 * `outbound` stream. Needs a database adapter, for the single-use tokens.
 *
 * @example
 * ```ts
 * import Postmark from "@tessera/core/providers/postmark"
 * Postmark({ apiKey: process.env.AUTH_POSTMARK_KEY, from: "Acme <no-reply@acme.example>" })
 * ```
 *
 * The request: `POST https://api.postmarkapp.com/email` with
 * `X-Postmark-Server-Token: <token>`, `Accept: application/json` and JSON
 * `{ From, To, Subject, TextBody, HtmlBody, MessageStream: "outbound" }`.
 * Postmark refuses with 401 (bad token) or 422 `{ ErrorCode, Message }`; any
 * answer but a 2xx fails the sign-in with `error=EmailSignin`.
 * @see https://postmarkapp.com/developer/user-guide/send-email-with-api
 * @see https://postmarkapp.com/developer/api/overview#error-codes
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

const SERVICE = "Postmark"

/** The default `sendVerificationRequest` of `Postmark`. */
export async function sendWithPostmark(params: EmailSendVerificationRequestParams): Promise<void> {
  const { apiKey: token, from, to, message } = mailParts(params, SERVICE)
  await sendToMailApi(params, SERVICE, "https://api.postmarkapp.com/email", {
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      "x-postmark-server-token": token,
    },
    body: JSON.stringify({
      From: from,
      To: to,
      Subject: message.subject,
      TextBody: message.text,
      HtmlBody: message.html,
      MessageStream: "outbound",
    }),
  })
}

// Without its API key nothing can be sent: a missing one is refused at start.
withRequiredOptions(sendWithPostmark)

/**
 * E-mail ("magic link") sign-in, sent through Postmark's Email API.
 *
 * @param config `apiKey` (default `AUTH_POSTMARK_KEY`), `from`, and any e-mail provider option to override.
 * @see [Auth.js: Postmark](https://authjs.dev/reference/core/providers/postmark)
 * @see https://postmarkapp.com/developer/user-guide/send-email-with-api
 * @see https://postmarkapp.com/developer/api/overview#error-codes
 */
export default function Postmark(config: EmailUserConfig = {}): EmailConfig {
  return mailApiProvider(
    { id: "postmark", name: "Postmark", sendVerificationRequest: sendWithPostmark },
    config,
  )
}
