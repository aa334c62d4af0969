/**
 * E-mail sign-in over SMTP with nodemailer (an optional peer dependency, loaded
 * only when the first link is sent: apps that never send mail do not need it).
 *
 * @example
 * ```ts
 * import Nodemailer from "@tessera/core/providers/nodemailer"
 * Nodemailer({ server: process.env.EMAIL_SERVER, from: "Acme <no-reply@acme.example>" })
 * ```
 * @module
 */
import { verificationMessage } from "../flows/email/message.js"
import { needsServer } from "../flows/email/normalize.js"
import type { EmailConfig, EmailSendVerificationRequestParams, EmailUserConfig } from "./email.js"

export { verificationMessage, type VerificationMessage } from "../flows/email/message.js"

/** `server` (a connection URL such as `smtp://user:pass@smtp.example:587`, or nodemailer transport options) is required. */
export interface NodemailerConfig extends EmailConfig {}

export type NodemailerUserConfig = EmailUserConfig

/** The bits of nodemailer used here. Typed locally so core's types do not pull in Node's. */
interface Transport {
  sendMail(message: {
    to: { name: string; address: string }
    from: string
    subject: string
    text: string
    html: string
  }): Promise<{ rejected?: unknown[]; pending?: unknown[] }>
}

interface NodemailerModule {
  createTransport(server: unknown): Transport
}

// A variable specifier keeps bundlers and the type checker from resolving
// nodemailer when core is built: it is needed only by apps that send mail.
const NODEMAILER = "nodemailer"
let nodemailer: Promise<NodemailerModule> | undefined

async function loadNodemailer(): Promise<NodemailerModule> {
  nodemailer ??= import(/* @vite-ignore */ NODEMAILER).then(
    (module: { default?: NodemailerModule } & NodemailerModule) =>
      typeof module.createTransport === "function" ? module : module.default!,
  )
  try {
    return await nodemailer
  } catch (error) {
    nodemailer = undefined
    throw new Error("The nodemailer package is not installed: npm install nodemailer", {
      cause: error,
    })
  }
}

/**
 * nodemailer's own bounds (2 min to connect, 30 s for the greeting, 10 min of
 * silence) let a hung mail server hold an e-mail sign-in open for minutes.
 * 10 s to connect and to be greeted, 30 s of silence once talking (a large
 * message to a slow but working server still goes out).
 */
const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
} as const

/**
 * `server` with {@link SMTP_TIMEOUTS} where the app set none. An options object
 * gets them under its own keys. A connection URL (`smtp://user:pass@host:587`,
 * alone or as an object's `url`, when nodemailer reads nothing else of the
 * object) gets those its query does not name appended, so
 * `?socketTimeout=60000` still wins. Anything else (a transport plugin, another
 * scheme) is passed as it is.
 */
function withSmtpTimeouts(server: unknown): unknown {
  if (typeof server === "string") return urlWithTimeouts(server)
  if (!server || typeof server !== "object") return server
  const prototype: unknown = Object.getPrototypeOf(server)
  if (prototype !== Object.prototype && prototype !== null) return server
  const options = server as Record<string, unknown>
  if (typeof options.send === "function") return server
  if (typeof options.url === "string") return { ...options, url: urlWithTimeouts(options.url) }
  return { ...SMTP_TIMEOUTS, ...options }
}

/** Appends the bounds `url`'s query leaves out; the URL itself is not re-encoded. */
function urlWithTimeouts(url: string): string {
  if (!/^smtps?:/i.test(url) || url.includes("#")) return url
  const start = url.indexOf("?")
  const given = new URLSearchParams(start === -1 ? "" : url.slice(start + 1))
  const missing = Object.entries(SMTP_TIMEOUTS).filter(([key]) => !given.has(key))
  if (missing.length === 0) return url
  const separator = start === -1 ? "?" : /[?&]$/.test(url) ? "" : "&"
  return url + separator + missing.map(([key, value]) => `${key}=${value}`).join("&")
}

/** One transport per provider: nodemailer parses the server option once, not per message. */
const transports = new WeakMap<object, Transport>()

async function transportFor(provider: EmailConfig): Promise<Transport> {
  let transport = transports.get(provider)
  if (!transport) {
    transport = (await loadNodemailer()).createTransport(withSmtpTimeouts(provider.server))
    transports.set(provider, transport)
  }
  return transport
}

/**
 * The default `sendVerificationRequest`: the message from {@link verificationMessage},
 * sent with nodemailer through `provider.server`. The recipient is given as an
 * address object, which nodemailer does not re-parse as an address list.
 */
async function send(params: EmailSendVerificationRequestParams): Promise<void> {
  const { identifier, url, provider, theme, code } = params
  if (!provider.server)
    throw new Error(`E-mail provider "${provider.id}" has no server to send with`)
  const host = new URL(url).host
  const transport = await transportFor(provider)
  const result = await transport.sendMail({
    to: { name: "", address: identifier },
    from: provider.from ?? `no-reply@${new URL(url).hostname}`,
    ...verificationMessage({ url, host, theme, code, link: provider.method !== "code" }),
  })
  // The message names no address or link: both stay out of logs.
  const failed = [...(result.rejected ?? []), ...(result.pending ?? [])]
  if (failed.length) throw new Error("The mail server did not accept the recipient")
}

/** {@link send}, marked as needing `server` (checked when the configuration is resolved). */
export const sendWithNodemailer: (params: EmailSendVerificationRequestParams) => Promise<void> =
  /* @__PURE__ */ Object.assign(send, { [needsServer]: true })

/**
 * `server` is required (checked when the configuration is resolved); `from` defaults to
 * `no-reply@<your host>`.
 *
 * @param config `server` (an SMTP URL or nodemailer transport options) and `from`, plus any option
 *   of `Email`.
 * @see [Auth.js: Nodemailer](https://authjs.dev/reference/core/providers/nodemailer)
 * @see [Nodemailer: SMTP transport](https://nodemailer.com/smtp/)
 */
export default function Nodemailer(config: NodemailerUserConfig = {}): NodemailerConfig {
  return {
    id: "nodemailer",
    type: "email",
    name: "Nodemailer",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    options: config,
  }
}
