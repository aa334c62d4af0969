/**
 * A local SMTP server that keeps every message it receives, for end-to-end
 * tests of e-mail sign-in: the app sends with nodemailer to
 * `smtp://127.0.0.1:<port>`, the test reads the link from the mail.
 *
 * It listens on 127.0.0.1 only, on a port the OS picks, with no TLS and no
 * authentication (nothing here is secret, and tests must not depend on
 * certificates). Bodies are decoded (quoted-printable, base64, MIME
 * multipart, RFC 2047 subjects) so a test reads the text a person would.
 *
 * @example
 * ```ts
 * import { startMailSink } from "@tessera/testing"
 * const sink = await startMailSink()
 * const provider = Nodemailer({ server: sink.url, from: "app@example.com" })
 * // ... POST signin/nodemailer ...
 * const mail = await sink.waitForMessage((m) => m.to.includes("ada@example.com"))
 * const link = mail.text.match(/https?:\S+/)![0]
 * await sink.stop()
 * ```
 * @module
 */

/**
 * A message the sink received: envelope, headers, text and HTML parts.
 *
 * @see [RFC 5322, Internet Message Format](https://www.rfc-editor.org/rfc/rfc5322.html)
 */
export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string
  /** Envelope recipients (RCPT TO), as the server received them. */
  to: string[]
  /** Header fields, names lower-cased, folded lines joined; the first of repeated fields. */
  headers: Record<string, string>
  /** The decoded subject. */
  subject: string
  /** The decoded `text/plain` part ("" if none). */
  text: string
  /** The decoded `text/html` part ("" if none). */
  html: string
  /** The message exactly as received. */
  raw: string
}

/**
 * A running SMTP sink: where it listens, what it received, how to wait for a message and stop it.
 *
 * @see [docs/testing.md: a local mail server](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#a-local-mail-server)
 */
export interface MailSink {
  host: string
  port: number
  /** `smtp://127.0.0.1:<port>`: pass it as nodemailer's `server`. */
  url: string
  /** Every message received so far, oldest first. */
  messages: ReceivedMail[]
  /**
   * The first message (received already, or arriving within `timeoutMs`, default
   * 5 s) that matches `predicate` (default: any).
   */
  waitForMessage(
    predicate?: (mail: ReceivedMail) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMail>
  /**
   * With `holdMessages`: answers every message held so far (`250`), as a stalled server
   * that comes back would. Messages arriving later are held again.
   */
  release(): void
  /** Closes the server (answers held messages, waits for open connections to finish). Safe to call twice. */
  stop(): Promise<void>
}

/**
 * Options of {@link startMailSink}.
 *
 * @see [docs/testing.md: a local mail server](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#a-local-mail-server)
 */
export interface MailSinkOptions {
  /** Refuse these recipients with `550` (to test delivery failures). */
  rejectRecipient?: (address: string) => boolean
  /**
   * Never answer the end of a message (to test a mail server that takes the
   * connection and then never answers): each message is received (and in
   * `messages`, as a late delivery would be), but the client waits for its
   * `250` until `release()`.
   */
  holdMessages?: boolean
}

/**
 * Starts an SMTP server on 127.0.0.1 that keeps every message it receives (no TLS, no
 * authentication): e-mail sign-in tested end to end.
 *
 * @param options `rejectRecipient`: addresses to refuse.
 * @see [docs/testing.md: a local mail server](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#a-local-mail-server)
 * @see [RFC 5321, Simple Mail Transfer Protocol](https://www.rfc-editor.org/rfc/rfc5321.html)
 */
export async function startMailSink(options: MailSinkOptions = {}): Promise<MailSink> {
  const messages: ReceivedMail[] = []
  const waiters = new Set<() => void>()
  const held: (() => void)[] = []
  const release = () => {
    for (const answer of held.splice(0)) answer()
  }

  // Loaded here, not at import: smtp-server does work at its import (it hashes its built-in
  // certificate), and no entry of @tessera/testing runs anything until it is called.
  const { SMTPServer } = await import("smtp-server")
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    hideSTARTTLS: true,
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipient?.(address.address)) {
        const error = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 })
        return callback(error)
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("error", callback)
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("latin1")
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : ""
        const to = session.envelope.rcptTo.map((r) => r.address)
        messages.push(parseMail(raw, from, to))
        for (const wake of [...waiters]) wake()
        if (options.holdMessages) held.push(() => callback())
        else callback()
      })
    },
  })
  // Errors on client sockets (a test's transport going away) must not crash the run.
  server.on("error", () => {})

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const address = server.server.address()
  if (!address || typeof address !== "object") throw new Error("startMailSink: no port")
  const { port } = address

  let stopped: Promise<void> | undefined
  return {
    host: "127.0.0.1",
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMessage(predicate = () => true, timeoutMs = 5000) {
      return new Promise<ReceivedMail>((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate)
          if (!found) return false
          clearTimeout(timer)
          waiters.delete(check)
          resolve(found)
          return true
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(
            new Error(
              `waitForMessage: no matching message within ${timeoutMs} ms (${messages.length} received)`,
            ),
          )
        }, timeoutMs)
        if (!check()) waiters.add(check)
      })
    },
    release,
    stop() {
      release()
      stopped ??= new Promise<void>((resolve) => server.close(() => resolve()))
      return stopped
    },
  }
}

// ---- a small MIME reader: enough for what mail libraries send ----

interface MimePart {
  headers: Record<string, string>
  body: string
}

/** Splits header block and body (latin1 strings keep one char per byte). */
function splitPart(raw: string): MimePart {
  const match = /\r?\n\r?\n/.exec(raw)
  const head = match ? raw.slice(0, match.index) : raw
  const body = match ? raw.slice(match.index + match[0].length) : ""
  const headers: Record<string, string> = {}
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    headers[name] ??= line.slice(colon + 1).trim()
  }
  return { headers, body }
}

/** `text/plain; charset=utf-8; boundary="x"` -> type and parameters. */
function contentType(value: string | undefined): { type: string; params: Record<string, string> } {
  const [type = "text/plain", ...rest] = (value ?? "text/plain").split(";")
  const params: Record<string, string> = {}
  for (const param of rest) {
    const eq = param.indexOf("=")
    if (eq === -1) continue
    params[param.slice(0, eq).trim().toLowerCase()] = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1")
  }
  return { type: type.trim().toLowerCase(), params }
}

function latin1Bytes(value: string): Uint8Array {
  return Uint8Array.from(value, (c) => c.charCodeAt(0) & 0xff)
}

function decodeQuotedPrintable(value: string): Uint8Array {
  const unfolded = value.replace(/=\r?\n/g, "")
  const bytes: number[] = []
  for (let i = 0; i < unfolded.length; i++) {
    const c = unfolded[i]!
    const hex = unfolded.slice(i + 1, i + 3)
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(c.charCodeAt(0) & 0xff)
    }
  }
  return Uint8Array.from(bytes)
}

function decodeBody(part: MimePart, charset: string): string {
  const encoding = (part.headers["content-transfer-encoding"] ?? "7bit").toLowerCase()
  const bytes =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(part.body)
      : encoding === "base64"
        ? Uint8Array.from(Buffer.from(part.body.replace(/\s+/g, ""), "base64"))
        : latin1Bytes(part.body)
  try {
    return new TextDecoder(charset || "utf-8").decode(bytes)
  } catch {
    return new TextDecoder("utf-8").decode(bytes)
  }
}

/** RFC 2047 encoded words in headers: `=?utf-8?Q?...?=` and `=?utf-8?B?...?=`. */
function decodeHeader(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_all, charset: string, kind: string, text: string) => {
        const bytes =
          kind.toUpperCase() === "B"
            ? Uint8Array.from(Buffer.from(text, "base64"))
            : decodeQuotedPrintable(text.replace(/_/g, " "))
        try {
          return new TextDecoder(charset).decode(bytes)
        } catch {
          return new TextDecoder("utf-8").decode(bytes)
        }
      },
    )
}

/** Walks multipart bodies depth-first, collecting the first text/plain and text/html parts. */
function collect(part: MimePart, found: { text?: string; html?: string }, depth = 0): void {
  const { type, params } = contentType(part.headers["content-type"])
  if (type.startsWith("multipart/") && params.boundary && depth < 10) {
    const delimiter = `--${params.boundary}`
    const sections = part.body.split(delimiter).slice(1)
    for (const section of sections) {
      if (section.startsWith("--")) break
      // The line break before a delimiter belongs to the delimiter (RFC 2046), not to the part.
      collect(splitPart(section.replace(/^\r?\n/, "").replace(/\r?\n$/, "")), found, depth + 1)
    }
    return
  }
  if ((part.headers["content-disposition"] ?? "").toLowerCase().startsWith("attachment")) return
  if (type === "text/plain" && found.text === undefined)
    found.text = decodeBody(part, params.charset ?? "utf-8")
  if (type === "text/html" && found.html === undefined)
    found.html = decodeBody(part, params.charset ?? "utf-8")
}

/**
 * Parses a received message. Exported for tests of the parser itself.
 *
 * @param raw The message as received.
 * @param from The envelope sender.
 * @param to The envelope recipients.
 * @see [RFC 5322, Internet Message Format](https://www.rfc-editor.org/rfc/rfc5322.html)
 * @see [RFC 2045, MIME](https://www.rfc-editor.org/rfc/rfc2045.html)
 */
export function parseMail(raw: string, from: string, to: string[]): ReceivedMail {
  const root = splitPart(raw)
  const found: { text?: string; html?: string } = {}
  collect(root, found)
  return {
    from,
    to,
    headers: Object.fromEntries(Object.entries(root.headers).map(([k, v]) => [k, decodeHeader(v)])),
    subject: decodeHeader(root.headers.subject ?? ""),
    text: (found.text ?? "").replace(/\r\n/g, "\n"),
    html: (found.html ?? "").replace(/\r\n/g, "\n"),
    raw,
  }
}
