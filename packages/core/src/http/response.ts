/**
 * `ResponseInternal` -> `Response`.
 * @module
 */
import type { ResponseInternal } from "../types.js"
import { serializeCookie } from "./cookies.js"

/**
 * Builds the web `Response`. A redirect becomes a 302, or JSON `{ url }` when the
 * client asked for it with `X-Auth-Return-Redirect: 1` (fetch-based clients, which
 * cannot read a cross-origin Location header).
 */
export function toResponse(result: ResponseInternal, returnRedirectAsJson: boolean): Response {
  const headers = new Headers(result.headers)
  for (const cookie of result.cookies ?? []) headers.append("Set-Cookie", serializeCookie(cookie))
  if (result.redirect) {
    if (returnRedirectAsJson) {
      headers.set("Content-Type", "application/json")
      headers.delete("Location")
      return new Response(JSON.stringify({ url: result.redirect }), { status: 200, headers })
    }
    headers.set("Location", result.redirect)
    return new Response(null, {
      status: result.status && result.status >= 300 && result.status < 400 ? result.status : 302,
      headers,
    })
  }
  let body: string | null = null
  if (typeof result.body === "string") {
    body = result.body
    if (!headers.has("Content-Type")) headers.set("Content-Type", "text/html; charset=utf-8")
  } else if (result.body !== undefined) {
    body = JSON.stringify(result.body)
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json")
  }
  return new Response(body, { status: result.status ?? 200, headers })
}

/** Headers that keep sessions and tokens out of shared caches. */
export const noStoreHeaders = {
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
} as const
