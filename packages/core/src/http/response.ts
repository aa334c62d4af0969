/**
 * `ResponseInternal` -> `Response`.
 * @module
 */
import type { ResponseInternal } from "../types.js"
import { serializeCookie } from "./cookies.js"

/**
 * Builds the web `Response`. A redirect becomes a 302, or JSON `{ url }` when the
 * client asked for it with `X-Auth-Return-Redirect: 1` (fetch-based clients, which
 * cannot read a cross-origin Location header). A response that sets cookies is
 * `no-store` unless it says otherwise: a shared cache must never keep one (it
 * may carry a session), whatever the route, the status or the method. Every body
 * goes out with `X-Content-Type-Options: nosniff`: a JSON answer may echo what a
 * client wrote (a name, a provider's profile), and no browser may render it as a page.
 */
export function toResponse(result: ResponseInternal, returnRedirectAsJson: boolean): Response {
  const given = result.headers
  if (
    !result.redirect &&
    !result.cookies?.length &&
    (given === undefined || Object.getPrototypeOf(given) === Object.prototype)
  ) {
    return plainResponse(result, given as Record<string, string> | undefined)
  }
  const headers = new Headers(result.headers)
  for (const cookie of result.cookies ?? []) headers.append("Set-Cookie", serializeCookie(cookie))
  if (result.cookies?.length && !headers.has("Cache-Control")) {
    for (const [name, value] of Object.entries(noStoreHeaders)) headers.set(name, value)
  }
  if (result.redirect) {
    if (returnRedirectAsJson) {
      headers.set("Content-Type", "application/json")
      headers.set(NOSNIFF, "nosniff")
      headers.delete("Location")
      return new Response(JSON.stringify({ url: result.redirect }), { status: 200, headers })
    }
    headers.set("Location", result.redirect)
    return new Response(null, {
      status: result.status && result.status >= 300 && result.status < 400 ? result.status : 302,
      headers,
    })
  }
  const [body, contentType] = bodyOf(result, headers.get("Content-Type"))
  if (contentType && !headers.has("Content-Type")) headers.set("Content-Type", contentType)
  if (contentType) headers.set(NOSNIFF, "nosniff")
  return new Response(body, { status: result.status ?? 200, headers })
}

/**
 * The internal result as raw mode hands it to an integration: its body's type named in
 * `headers` (JSON for an object or `null`, HTML for text), as Auth.js's internal results do.
 * An integration that builds its `Response` the way Auth.js's `toResponse` does serialises the
 * body only when the headers say JSON. A redirect has no body to name; a type the route set
 * itself is kept.
 */
export function typedResult(result: ResponseInternal): ResponseInternal {
  if (result.redirect) return result
  const contentType = contentTypeOf(result.body)
  if (!contentType) return result
  const given = result.headers
  if (given === undefined || Object.getPrototypeOf(given) === Object.prototype) {
    const record = given as Record<string, string> | undefined
    const typed = record !== undefined && declaredType(record) !== undefined
    // A record of its own when the route gave none: an integration may add to it.
    const headers =
      record === undefined
        ? extended({}, contentType)
        : bodyHeaders(record, typed ? undefined : contentType)
    return headers === given ? result : { ...result, headers }
  }
  const headers = new Headers(given)
  if (!headers.has("Content-Type")) headers.set("Content-Type", contentType)
  headers.set(NOSNIFF, "nosniff")
  return { ...result, headers }
}

/** The content type a body implies (HTML for text, JSON otherwise), without serialising it. */
function contentTypeOf(body: ResponseInternal["body"]): string | undefined {
  if (typeof body === "string") return "text/html; charset=utf-8"
  return body === undefined ? undefined : "application/json"
}

/**
 * The body as text and the content type it implies (HTML for text, JSON otherwise). Text the
 * result declares JSON (`declared`) is a JSON string, serialised as Auth.js's `toResponse` does:
 * a string from an app's callback is never sent as it is, as a page.
 */
function bodyOf(
  result: ResponseInternal,
  declared?: string | null,
): [string | null, string | undefined] {
  const contentType = contentTypeOf(result.body)
  if (contentType === undefined) return [null, undefined]
  const body = result.body as unknown
  if (typeof body !== "string") return [JSON.stringify(body), contentType]
  return [declared && isJson(declared) ? JSON.stringify(body) : body, contentType]
}

const isJson = (contentType: string) => /^application\/json\s*(;|$)/i.test(contentType)

/** The Content-Type a record of headers names, whatever its spelling. */
function declaredType(given: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(given))
    if (name.toLowerCase() === "content-type") return value
  return undefined
}

/**
 * A response with no cookie, no redirect and its headers as a record (every
 * session check): the record goes to `Response` as it is, without building a
 * `Headers` object first, which cost a session check more than its decryption.
 * A JSON body is serialized here and given with its Content-Type in the record
 * (cached per record): cheaper than `Response.json`, with the same bytes and headers.
 */
function plainResponse(result: ResponseInternal, given: Record<string, string> | undefined) {
  const status = result.status ?? 200
  const declared = given === undefined ? undefined : declaredType(given)
  const [body, contentType] = bodyOf(result, declared)
  if (!contentType) return new Response(body, { status, headers: given })
  const headers = bodyHeaders(given, declared === undefined ? contentType : undefined)
  return new Response(body, { status, headers })
}

/** The header that keeps browsers from sniffing a body's type (a JSON answer rendered as a page). */
const NOSNIFF = "X-Content-Type-Options"

/** The records of headers a body goes out with when the route gave none: constant, shared. */
const bareBodyHeaders = new Map<string, Record<string, string>>()

/**
 * `given` plus `X-Content-Type-Options: nosniff`, and a Content-Type when `contentType` is
 * given (the route named none). `given` itself when it already has both (the pages' headers).
 * The records of constant headers (frozen: `noStoreHeaders`) are extended once and kept, so
 * a session check allocates no header record of its own.
 */
const typedHeaders = new WeakMap<object, Map<string, Record<string, string>>>()
function bodyHeaders(
  given: Record<string, string> | undefined,
  contentType: string | undefined,
): Record<string, string> {
  if (given === undefined) {
    const type = contentType ?? ""
    let headers = bareBodyHeaders.get(type)
    if (!headers) bareBodyHeaders.set(type, (headers = Object.freeze(extended({}, contentType))))
    return headers
  }
  if (contentType === undefined && given[NOSNIFF] === "nosniff") return given
  if (!Object.isFrozen(given)) return extended(given, contentType)
  const key = contentType ?? ""
  let byType = typedHeaders.get(given)
  if (!byType) typedHeaders.set(given, (byType = new Map()))
  let headers = byType.get(key)
  if (!headers) byType.set(key, (headers = Object.freeze(extended(given, contentType))))
  return headers
}

function extended(given: Record<string, string>, contentType: string | undefined) {
  const headers: Record<string, string> = { ...given, [NOSNIFF]: "nosniff" }
  if (contentType !== undefined) headers["Content-Type"] = contentType
  return headers
}

/** Headers that keep sessions and tokens out of shared caches. Frozen: responses share it. */
export const noStoreHeaders = Object.freeze({
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
} as const)
