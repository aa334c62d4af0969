/**
 * Cookies core asks to set while reading a session (a refreshed session
 * cookie, or expired ones for an invalid session), as `Set-Cookie` lines with
 * exactly core's attributes, applied once per request however many times the
 * session is read.
 * @module
 */
import type { Context } from "hono"
import type { Cookie } from "@tessera/core/types"
import { serialize } from "cookie"

/** `Set-Cookie` header values for `cookies`. */
export function setCookieLines(cookies: readonly Cookie[]): string[] {
  return cookies.map(({ name, value, options }) => serialize(name, value, options))
}

const applied = new WeakSet<Context>()

/** Appends `lines` to the response of `c`, the first time only. */
export function applyCookiesOnce(c: Context, lines: readonly string[]): void {
  if (applied.has(c)) return
  applied.add(c)
  for (const line of lines) c.header("Set-Cookie", line, { append: true })
}
