/**
 * E-mail ("magic link") sign-in: the user types an address, receives a link,
 * and following it signs them in. Needs a database adapter (for the single-use
 * tokens and the users).
 *
 * `Email` is the generic provider: give it your own `sendVerificationRequest`
 * (an HTTP mail API, a queue), or `server` and `from` to send with nodemailer
 * as `Nodemailer` does. Providers for HTTP mail APIs (`resend`, `sendgrid`,
 * `postmark`, `mailgun`, `forwardemail`, `loops`) build on
 * {@link sendToMailApi}, which your own can use too.
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
import { verificationMessage, type VerificationMessage } from "../flows/email/message.js"
import { requiredOptions } from "../flows/email/normalize.js"
import { customFetch } from "../symbols.js"
import { withHttpTimeout } from "../lib/http-timeout.js"
import type { Awaitable, Theme } from "../types.js"
import type { CommonProviderOptions } from "./index.js"
import { sendWithNodemailer } from "./nodemailer.js"

/**
 * What an e-mail provider's `sendVerificationRequest` receives: the address, the sign-in link, its
 * token and expiry, the provider, the page's theme and language.
 *
 * @see [Auth.js: e-mail providers](https://authjs.dev/reference/core/providers/email)
 */
export interface EmailSendVerificationRequestParams {
  /** The normalized e-mail address. */
  identifier: string
  /**
   * The sign-in link. With `method: "code"`, the page where the code is
   * entered (the mail need not link to it).
   */
  url: string
  expires: Date
  provider: EmailConfig
  /** The raw token in the link (with codes: the code). Never log it. */
  token: string
  /** With `method: "code"` or `"both"`: the one-time code (8 digits) to show. Never log it. */
  code?: string
  /**
   * The configuration's theme, with `locale` set to the locale of this request
   * (configured, or negotiated from `Accept-Language`) and `messages[locale]`
   * to all its strings: `verificationMessage({ url, host, theme })` writes the
   * mail in that language. (Tessera addition.)
   */
  theme: Theme
  request: Request
}

/**
 * Auth.js spelling of {@link EmailSendVerificationRequestParams}.
 *
 * @see [Auth.js: e-mail providers](https://authjs.dev/reference/core/providers/email)
 */
export type EmailProviderSendVerificationRequestParams = EmailSendVerificationRequestParams

/**
 * An e-mail provider (sign-in by link or one-time code), as resolved from its factory.
 *
 * @see [Auth.js: e-mail providers](https://authjs.dev/reference/core/providers/email)
 */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  id: string
  name: string
  /** nodemailer transport: a connection URL (`smtp://user:pass@host:587`) or an options object. */
  server?: any
  /** The sender. Default `no-reply@<your host>`. */
  from?: string
  /** Seconds the link stays valid. Default 24 hours (codes: 10 minutes, whatever this says). */
  maxAge?: number
  /**
   * What the mail carries: a sign-in `"link"` (default), a one-time `"code"`
   * (8 digits, entered on the verify-request page), or `"both"` (the code, and
   * a link that carries it). Codes live 10 minutes, work once, and die after 5
   * wrong attempts. (Tessera addition.)
   */
  method?: "link" | "code" | "both"
  /**
   * Following the link shows a confirmation page ("Sign in as ...") and only
   * its button signs in, so a mail scanner that opens every link cannot use
   * it up. Recommended when users' mail is scanned. Default false: the link
   * signs in at once, as in Auth.js. (Tessera addition.)
   */
  confirmLink?: boolean
  /** Sends the link. Throwing ends the sign-in with `error=EmailSignin`. */
  sendVerificationRequest: (params: EmailSendVerificationRequestParams) => Awaitable<void>
  /**
   * Milliseconds `sendVerificationRequest` may take (mail server or API
   * included). Past them the sign-in ends with `error=EmailSignin`, as if it had
   * thrown, and the link or code is taken out again: a mail that still goes out
   * later carries a dead one. Default 30 000 (30 s). (Tessera addition.)
   */
  sendTimeout?: number
  /** Default: 32 random bytes (256 bits) from the CSPRNG, hex. Return at least 128 random bits. */
  generateVerificationToken?: () => Awaitable<string>
  /** Default: trims, lower-cases and strictly validates the address. Throw to refuse. */
  normalizeIdentifier?: (identifier: string) => string
  /** Used to hash tokens instead of the global secret (32 or more characters). */
  secret?: string
  /** For HTTP mail APIs; Tessera only passes it through to `sendVerificationRequest` via `provider`. */
  apiKey?: string
  /** Routes an HTTP mail API provider's requests through your own `fetch` (proxies, tests). */
  [customFetch]?: typeof fetch
  options?: EmailUserConfig
}

/**
 * The `type` of e-mail providers.
 *
 * @see [Auth.js: e-mail providers](https://authjs.dev/reference/core/providers/email)
 */
export type EmailProviderType = "email"

/**
 * The ids of the built-in e-mail providers (Auth.js's name for the union).
 *
 * @see [Auth.js: providers](https://authjs.dev/reference/core/providers)
 */
export type EmailProviderId =
  "email" | "forwardemail" | "loops" | "mailgun" | "nodemailer" | "postmark" | "resend" | "sendgrid"

/**
 * What an e-mail provider factory takes: every field of {@link EmailConfig} but `type`, all
 * optional.
 *
 * @see [Auth.js: e-mail providers](https://authjs.dev/reference/core/providers/email)
 */
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

/**
 * The API key of an HTTP mail API provider; throws (naming the variable to set) when there is none.
 *
 * @param provider The resolved e-mail provider.
 * @param service The mail API's name, for the error message.
 * @see {@link mailParts}
 */
export function mailApiKey(provider: EmailConfig, service: string): string {
  if (typeof provider.apiKey === "string" && provider.apiKey !== "") return provider.apiKey
  const variable = `AUTH_${provider.id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_KEY`
  throw new TypeError(`${service}: no API key (set apiKey, or ${variable})`)
}

/**
 * The sender: `from`, or `no-reply@<the app's host>` as for `Nodemailer`.
 *
 * @param params What `sendVerificationRequest` received.
 * @see [Auth.js: Nodemailer provider](https://authjs.dev/reference/core/providers/nodemailer)
 */
export function mailSender(params: EmailSendVerificationRequestParams): string {
  return params.provider.from ?? `no-reply@${new URL(params.url).hostname}`
}

/**
 * What a request to an HTTP mail API is made of: the API key (required), the
 * sender, the recipient and the default sign-in message.
 *
 * @param params What `sendVerificationRequest` received.
 * @param service The mail API's name, for error messages.
 * @see {@link sendToMailApi}
 */
export function mailParts(
  params: EmailSendVerificationRequestParams,
  service: string,
): { apiKey: string; from: string; to: string; message: VerificationMessage } {
  const { url, theme } = params
  return {
    apiKey: mailApiKey(params.provider, service),
    from: mailSender(params),
    to: params.identifier,
    message: verificationMessage({
      url,
      host: new URL(url).host,
      theme,
      code: params.code,
      link: params.provider.method !== "code",
    }),
  }
}

/**
 * `send`, marked as needing `options` (checked when the configuration is
 * resolved, so a missing API key stops the app at start, not a user's sign-in).
 *
 * @param send A provider's own `sendVerificationRequest`.
 * @param options The provider options it cannot send without.
 * @see {@link mailApiProvider}
 */
export function withRequiredOptions<
  F extends (params: EmailSendVerificationRequestParams) => Promise<void>,
>(send: F, options: string[] = ["apiKey"]): F {
  return Object.assign(send, { [requiredOptions]: options })
}

/**
 * An e-mail provider that sends through an HTTP mail API with `sendVerificationRequest`.
 *
 * @param defaults The provider's own settings: `id`, `name`, `sendVerificationRequest`.
 * @param options The app's options, which win over `defaults`.
 * @see [Auth.js: e-mail providers](https://authjs.dev/reference/core/providers/email)
 */
export function mailApiProvider<C extends EmailConfig>(
  defaults: Pick<C, "id" | "name" | "sendVerificationRequest"> & Partial<C>,
  options: Omit<Partial<C>, "options" | "type">,
): C {
  return { type: "email", maxAge: 24 * 60 * 60, ...defaults, options } as unknown as C
}

/**
 * Sends one request to an HTTP mail API from a `sendVerificationRequest`:
 * through the provider's `customFetch` (or `fetch`), never following a
 * redirect. Resolves to the response when it is a 2xx; otherwise throws an
 * error naming the service, the status and the start of its answer, with the
 * API key, the link, its token and the address taken out (errors are logged).
 *
 * @example
 * ```ts
 * async sendVerificationRequest(params) {
 *   await sendToMailApi(params, "Acme Mail", "https://api.acme.example/send", {
 *     method: "POST",
 *     headers: { authorization: `Bearer ${mailApiKey(params.provider, "Acme Mail")}` },
 *     body: JSON.stringify({ to: params.identifier, ...verificationMessage(...) }),
 *   })
 * }
 * ```
 *
 * @param params What `sendVerificationRequest` received.
 * @param service The mail API's name, for error messages.
 * @param url The API endpoint.
 * @param init The request (method, headers, body).
 * @see {@link mailParts}
 */
export async function sendToMailApi(
  params: EmailSendVerificationRequestParams,
  service: string,
  url: string,
  init: RequestInit,
): Promise<Response> {
  const { provider } = params
  const send = provider[customFetch] ?? globalThis.fetch
  const response = await send(url, { ...withHttpTimeout(url, init), redirect: "error" })
  if (response.ok) return response
  const answer = await response.text().catch(() => "")
  // A service may echo the request: the credentials sent are secrets too.
  const sent = [...new Headers(init.headers)]
    .filter(([name]) => name !== "content-type" && name !== "accept")
    .flatMap(([, value]) => [value, value.slice(value.indexOf(" ") + 1)])
  const detail = redact(answer, params, sent)
  throw new Error(
    `${service} did not accept the sign-in e-mail: ${response.status} ${detail}`.trim(),
  )
}

/** The start of a service's answer with every secret of this message taken out. */
function redact(
  text: string,
  params: EmailSendVerificationRequestParams,
  headerValues: string[],
): string {
  const { provider, url, token, identifier, code } = params
  const credentials = headerValues.filter((value) => value.length >= 8)
  const secrets = [provider.apiKey, url, token, identifier, code, ...credentials]
    .filter((s): s is string => typeof s === "string" && s.length >= 4)
    .flatMap((s) => [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)])
    .sort((a, b) => b.length - a.length)
  let result = text.replace(/[\u0000-\u001f\u007f]/g, " ")
  for (const secret of secrets) result = result.split(secret).join("[redacted]")
  return result.slice(0, 200)
}
