/**
 * The body of an Express request, as bytes core can parse, whether or not the
 * app uses body-parsing middleware.
 *
 * Without a parser the stream is still unread and is read here as it came.
 * With `express.urlencoded()`/`express.json()` (or `text`/`raw`) in front, the
 * stream is gone and `req.body` is the parsed value: it is encoded back in the
 * request's content type, so core parses one format and applies one set of
 * rules (size limit, malformed input) either way.
 * @module
 */
import type { Request as ExpressRequest } from "express"

/**
 * Core refuses bodies over 64 KiB (413). Reading one byte past that is enough
 * for it to see a body is too large; the rest is drained, never kept.
 */
const READ_LIMIT = 64 * 1024 + 1

/** The body to hand core, or `undefined` for methods that have none. */
export async function requestBody(req: ExpressRequest): Promise<Bytes | undefined> {
  if (req.method === "GET" || req.method === "HEAD") return undefined
  // A readable request is one nobody has consumed: no body parser ran on it.
  if (req.readable) return readStream(req)
  return encodeParsed(req.body, req.get("content-type"))
}

/**
 * The client stopped sending the body before its end (it closed or reset the
 * connection, or broke off a lying `Content-Length`). The client's doing, not
 * a server fault: handed to `next()` it would be a 500 in the app's error
 * handler and error log, one per dropped connection. Mostly nobody is left to read an answer.
 */
export class BodyAborted extends Error {
  constructor() {
    super("The client stopped sending the request body")
  }
}

function readStream(req: ExpressRequest): Promise<Bytes> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const aborted = () => {
      req.off("data", onData).off("end", finish).off("error", aborted)
      reject(new BodyAborted())
    }
    const finish = () => {
      req.off("data", onData).off("end", finish).off("error", aborted)
      resolve(Buffer.concat(chunks))
    }
    const onData = (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.byteLength
      if (size >= READ_LIMIT) {
        // Enough to be refused. Keep draining so the connection stays usable, but keep nothing.
        req.off("data", onData).off("end", finish).off("error", aborted)
        req.on("error", () => {}).resume()
        resolve(Buffer.concat(chunks))
      }
    }
    req.on("data", onData).on("end", finish).on("error", aborted)
  })
}

const encoder = new TextEncoder()

/** Bytes a `Request` body accepts (backed by an `ArrayBuffer`). */
type Bytes = Uint8Array<ArrayBuffer>

/** A parsed body back in its wire format: form encoding, JSON, text or the raw bytes. */
function encodeParsed(body: unknown, contentType: string | undefined): Bytes {
  if (body === undefined || body === null) return new Uint8Array()
  if (body instanceof Uint8Array) return new Uint8Array(body)
  if (typeof body === "string") return encoder.encode(body)
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase()
  if (type === "application/x-www-form-urlencoded") {
    const form = new URLSearchParams()
    appendFields(form, "", body)
    return encoder.encode(form.toString())
  }
  return encoder.encode(JSON.stringify(body))
}

/**
 * Flattens what `express.urlencoded({ extended: true })` nested back into the
 * field names the form sent: `a[b]=1` parsed as `{ a: { b: "1" } }` becomes
 * `a[b]=1` again, and repeated fields (arrays) repeat.
 */
function appendFields(form: URLSearchParams, name: string, value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) appendFields(form, name, item)
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      appendFields(form, name ? `${name}[${key}]` : key, item)
    }
  } else if (value !== undefined) {
    form.append(name, String(value))
  }
}
