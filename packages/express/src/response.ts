/**
 * Writing core's answers onto Express's `res`: a whole `Response` from
 * `Auth()`, or the cookies `getSession` asks to set.
 *
 * `Set-Cookie` is the one header that must never be joined into one line (a
 * sign-in sets the session cookie, possibly in chunks, and clears flow
 * cookies in the same response), so it is appended line by line, after any
 * cookies the app already set on `res`.
 * @module
 */
import type { Response as ExpressResponse } from "express"
import type { Cookie } from "@tessera/core/types"
import { serialize } from "cookie"

/** Copies status, headers (each `Set-Cookie` on its own line) and body of `response` to `res`. */
export async function sendResponse(response: Response, res: ExpressResponse): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer())
  res.status(response.status)
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.append("Set-Cookie", cookies)
  res.end(body)
}

/**
 * Sets cookies from core's `getSession` (a refreshed session cookie, or
 * expired ones for a session that is no longer valid) on `res`, if the
 * response has not been sent yet. Attributes are exactly core's. The response
 * becomes `private, no-cache, no-store` unless it already says how to cache:
 * a shared cache (a CDN) must never keep one person's session cookie for the
 * next visitor. A route that sets `Cache-Control` afterwards has the last word.
 */
export function setCookies(res: ExpressResponse | undefined, cookies: readonly Cookie[]): void {
  if (!res || res.headersSent || cookies.length === 0) return
  res.append(
    "Set-Cookie",
    cookies.map(({ name, value, options }) => serialize(name, value, options)),
  )
  if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", "private, no-cache, no-store")
}
