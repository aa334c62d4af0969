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

/** The lines applied per request (see {@link carryCookies}); set once, however often the session is read. */
const applied = new WeakMap<Context, readonly string[]>()
/** Requests whose response carries session cookies set here (see {@link privateIfSessionSet}). */
const carried = new WeakSet<Context>()

/** Appends `lines` to the response of `c`, the first time only. */
export function applyCookiesOnce(c: Context, lines: readonly string[]): void {
  if (!recordOnce(c, lines)) return
  for (const line of lines) c.header("Set-Cookie", line, { append: true })
}

/**
 * Once the route answered `c`: `lines` added as {@link carryCookies} adds them (never after a
 * cookie the response sets itself), the first time only.
 */
export function carryCookiesOnce(c: Context, lines: readonly string[]): void {
  if (recordOnce(c, lines)) carryCookies(c)
}

/** Records `lines` as the ones applied to `c`; false when some already were. */
function recordOnce(c: Context, lines: readonly string[]): boolean {
  if (applied.has(c)) return false
  applied.set(c, lines)
  if (lines.length > 0) carried.add(c)
  return true
}

/**
 * Once the app answered `c`: the lines {@link applyCookiesOnce} applied and the response lacks
 * are appended. A route that read the session and answered with a `Response` of its own
 * (`return new Response(...)`) had them on Hono's prepared headers, which Hono drops for such
 * a response: a sliding session never moved forward, a cookie that is no session was never
 * cleared. A cookie the response sets itself (the route clearing the session cookie) is the
 * route's word: core's line after it would undo it.
 */
export function carryCookies(c: Context): void {
  const lines = applied.get(c)
  if (!lines?.length) return
  const own = new Set(c.res.headers.getSetCookie().map(cookieName))
  for (const line of lines) if (!own.has(cookieName(line))) appendCookie(c, line)
}

/**
 * Appends `line` to `c.res` in place, or, when its headers are immutable (a `fetch` result
 * passed through), to the copy Hono's `c.header` makes of it. In place first: a copy of some
 * responses (a WebSocket upgrade) is not the same answer.
 */
function appendCookie(c: Context, line: string): void {
  try {
    return c.res.headers.append("Set-Cookie", line)
  } catch {
    // Immutable headers: copied below.
  }
  try {
    c.header("Set-Cookie", line, { append: true })
  } catch {
    // A body already read cannot be copied: the response is left as it is.
  }
}

/** The name a `Set-Cookie` line sets. */
function cookieName(line: string): string {
  return line.slice(0, line.indexOf("=")).trim()
}

/**
 * Once the app answered `c`: a response carrying a session cookie set here, and saying nothing
 * of caching itself, becomes `private, no-cache, no-store`. A shared cache (a CDN) must never
 * keep one person's session cookie for the next visitor; a `Cache-Control` the app set is kept,
 * and so is a response whose headers are immutable (a `fetch` result passed through).
 */
export function privateIfSessionSet(c: Context): void {
  if (!carried.has(c) || c.res.headers.has("Cache-Control")) return
  try {
    c.res.headers.set("Cache-Control", "private, no-cache, no-store")
  } catch {
    // Immutable headers: the app's own response object, left as it is.
  }
}
