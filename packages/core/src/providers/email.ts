/**
 * E-mail ("magic link") sign-in: the user types an address, receives a link,
 * and following it signs them in. Needs a database adapter (for the single-use
 * tokens and the users).
 *
 * `Email` is the generic provider: give it your own `sendVerificationRequest`
 * (an HTTP mail API, a queue), or `server` and `from` to send with nodemailer
 * as `Nodemailer` does.
 *
 * @example
 * ```ts
 * import Email from "@tessera/core/providers/email"
 * Email({
 *   async sendVerificationRequest({ identifier, url }) {
 *     await mailApi.send({ to: identifier, subject: "Sign in", text: url })
 *   },
 * })
 * ```
 * @module
 */
import type { Awaitable, Theme } from "../types.js"
import type { CommonProviderOptions } from "./index.js"
import { sendWithNodemailer } from "./nodemailer.js"

export interface EmailSendVerificationRequestParams {
  /** The normalized e-mail address. */
  identifier: string
  /** The sign-in link. */
  url: string
  expires: Date
  provider: EmailConfig
  /** The raw token in the link. Never log it. */
  token: string
  theme: Theme
  request: Request
}

/** Auth.js spelling of {@link EmailSendVerificationRequestParams}. */
export type EmailProviderSendVerificationRequestParams = EmailSendVerificationRequestParams

export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  id: string
  name: string
  /** nodemailer transport: a connection URL (`smtp://user:pass@host:587`) or an options object. */
  server?: any
  /** The sender. Default `no-reply@<your host>`. */
  from?: string
  /** Seconds the link stays valid. Default 24 hours. */
  maxAge?: number
  /** Sends the link. Throwing ends the sign-in with `error=EmailSignin`. */
  sendVerificationRequest: (params: EmailSendVerificationRequestParams) => Awaitable<void>
  /** Default: 32 random bytes (256 bits) from the CSPRNG, hex. Return at least 128 random bits. */
  generateVerificationToken?: () => Awaitable<string>
  /** Default: trims, lower-cases and strictly validates the address. Throw to refuse. */
  normalizeIdentifier?: (identifier: string) => string
  /** Used to hash tokens instead of the global secret (32 or more characters). */
  secret?: string
  /** For HTTP mail APIs; Tessera only passes it through to `sendVerificationRequest` via `provider`. */
  apiKey?: string
  options?: EmailUserConfig
}

export type EmailProviderType = "email"

export type EmailUserConfig = Omit<Partial<EmailConfig>, "options" | "type">

/**
 * Sign in with a link sent by e-mail (a single-use token, stored hashed). Needs an adapter
 * with the verification-token methods.
 *
 * @param config `sendVerificationRequest` (sends the link), `maxAge` of the link (default 24 h),
 *   and how
 *   tokens and addresses are made and normalised.
 * @see [Auth.js: Email](https://authjs.dev/reference/core/providers/email)
 * @see [RFC 5321 §4.1.2, Command Argument Syntax](https://www.rfc-editor.org/rfc/rfc5321.html#section-4.1.2) (the address)
 */
export default function Email(config: EmailUserConfig = {}): EmailConfig {
  return {
    id: "email",
    type: "email",
    name: "Email",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    options: config,
  }
}
