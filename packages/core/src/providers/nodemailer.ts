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

/** One transport per provider: nodemailer parses the server option once, not per message. */
const transports = new WeakMap<object, Transport>()

async function transportFor(provider: EmailConfig): Promise<Transport> {
  let transport = transports.get(provider)
  if (!transport) {
    transport = (await loadNodemailer()).createTransport(provider.server)
    transports.set(provider, transport)
  }
  return transport
}

/**
 * The default `sendVerificationRequest`: the message from {@link verificationMessage},
 * sent with nodemailer through `provider.server`. The recipient is given as an
 * address object, which nodemailer does not re-parse as an address list.
 */
export async function sendWithNodemailer(
  params: EmailSendVerificationRequestParams,
): Promise<void> {
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
    name: "Email",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    options: config,
  }
}
