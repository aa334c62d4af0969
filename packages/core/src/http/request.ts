/**
 * `Request` -> `RequestInternal`. Everything a client controls is checked here:
 * the action and method, the provider id, the host headers, the body. Bad input
 * becomes an `AuthError` with a 4xx status, never an exception from deep inside.
 * @module
 */
import {
  InvalidRequest,
  type RecentSignInRequired,
  type UnknownAction,
  UntrustedHost,
} from "../errors.js"
import { trustedUrl } from "../config/origin.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { AuthAction, RequestInternal } from "../types.js"
import { parseCookieHeader } from "./cookies.js"

/** Bodies larger than this are refused: no sign-in form needs more. */
export const MAX_BODY_BYTES = 64 * 1024

/** An error with the HTTP status the client should get for it. */
export class RequestError extends Error {
  constructor(
    readonly error: InvalidRequest | UnknownAction | UntrustedHost | RecentSignInRequired,
    readonly status: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(error.message)
  }
}

/**
 * The URL `Auth()` works with: on the trusted origin (see `config/origin.ts`),
 * with the request's path and query. A host the policy refuses is a 400.
 */
export function effectiveUrl(request: Request, config: Pick<ResolvedConfig, "origin">): URL {
  const url = trustedUrl(config.origin, new URL(request.url), request.headers)
  if (url instanceof URL) return url
  throw new RequestError(
    url.malformed ? new InvalidRequest(url.message) : new UntrustedHost(url.message),
    400,
  )
}

async function readBody(request: Request): Promise<Record<string, any> | undefined> {
  if (request.method !== "POST" || !request.body) return undefined
  const declared = Number(request.headers.get("content-length") ?? "0")
  if (declared > MAX_BODY_BYTES)
    throw new RequestError(new InvalidRequest("Request body too large"), 413)
  let text: string
  try {
    text = await readLimited(request, MAX_BODY_BYTES)
  } catch (error) {
    if (error instanceof RequestError) throw error
    throw new RequestError(new InvalidRequest("Unreadable request body"), 400)
  }
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase()
  if (type === "application/json") {
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new RequestError(new InvalidRequest("Malformed JSON body"), 400)
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new RequestError(new InvalidRequest("The JSON body must be an object"), 400)
    }
    return parsed as Record<string, any>
  }
  if (type === "application/x-www-form-urlencoded" || type === "" || type === "text/plain") {
    return Object.fromEntries(new URLSearchParams(text))
  }
  if (type === "multipart/form-data") {
    try {
      const form = await new Response(text, {
        headers: { "content-type": request.headers.get("content-type")! },
      }).formData()
      return Object.fromEntries(
        [...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      )
    } catch {
      throw new RequestError(new InvalidRequest("Malformed form body"), 400)
    }
  }
  throw new RequestError(new InvalidRequest(`Unsupported content type ${type}`), 415)
}

/** Reads at most `limit` bytes; a body that says it is small but is not is cut off with 413. */
async function readLimited(request: Request, limit: number): Promise<string> {
  const reader = request.body!.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      throw new RequestError(new InvalidRequest("Request body too large"), 413)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
}

/**
 * The parsed request, once the route is known (see `matchRoute` in routes.ts).
 * Synchronous for a request without a body to read (every session check);
 * a promise while a POST body is read.
 */
export function toInternalRequest(
  request: Request,
  url: URL,
  match: { action: AuthAction; providerId?: string },
): RequestInternal | Promise<RequestInternal> {
  // Most requests (every session check) have no query: skip building URLSearchParams.
  const query: Record<string, string> = url.search ? Object.fromEntries(url.searchParams) : {}
  const internal: RequestInternal = {
    url,
    method: request.method.toUpperCase() as "GET" | "POST",
    action: match.action,
    providerId: match.providerId,
    headers: request.headers,
    cookies: parseCookieHeader(request.headers.get("cookie")),
    query,
    body: undefined,
    error: query.error,
  }
  if (internal.method !== "POST") return internal
  return readBody(request).then((body) => {
    internal.body = body
    return internal
  })
}
