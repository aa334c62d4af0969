/** Set-Cookie parsing, the cookie jar, and the cookie names Tessera uses. */
import { ORIGIN } from "./config.js"

export interface ParsedSetCookie {
  name: string
  value: string
  /** Attribute names lower-cased; flags map to `true`. */
  attributes: Record<string, string | true>
  raw: string
}

export function parseSetCookie(raw: string): ParsedSetCookie {
  const [pair, ...rest] = raw.split(/;\s*/)
  const eq = pair!.indexOf("=")
  const attributes: Record<string, string | true> = {}
  for (const part of rest) {
    const i = part.indexOf("=")
    if (i === -1) attributes[part.toLowerCase()] = true
    else attributes[part.slice(0, i).toLowerCase()] = part.slice(i + 1)
  }
  return {
    name: pair!.slice(0, eq),
    value: decodeURIComponent(pair!.slice(eq + 1)),
    attributes,
    raw,
  }
}

export function setCookies(response: Response): ParsedSetCookie[] {
  return response.headers.getSetCookie().map(parseSetCookie)
}

export function setCookie(response: Response, name: string): ParsedSetCookie | undefined {
  return setCookies(response).find((c) => c.name === name)
}

/** True when a Set-Cookie deletes its cookie. */
export function isExpired(cookie: ParsedSetCookie): boolean {
  return cookie.attributes["max-age"] === "0" || cookie.value === ""
}

/**
 * A browser's cookie store: a map of name to (decoded) value that applies Set-Cookie
 * headers, expiry included, and sends the live cookies back.
 */
export class Jar extends Map<string, string> {
  constructor(initial: Record<string, string> = {}) {
    super(Object.entries(initial))
  }

  update(response: Response): this {
    for (const cookie of setCookies(response)) {
      if (isExpired(cookie)) this.delete(cookie.name)
      else this.set(cookie.name, cookie.value)
    }
    return this
  }

  header(): string {
    return [...this].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ")
  }
}

export function sessionCookieName(origin = ORIGIN): string {
  return origin.startsWith("https:") ? "__Secure-tessera.session-token" : "tessera.session-token"
}

export function csrfCookieName(origin = ORIGIN): string {
  return origin.startsWith("https:") ? "__Host-tessera.csrf-token" : "tessera.csrf-token"
}

/** True when the response sets a (non-empty) session cookie, chunked or not. */
export function setsSession(response: Response): boolean {
  return setCookies(response).some(
    (c) =>
      c.name.startsWith(sessionCookieName()) && c.value !== "" && c.attributes["max-age"] !== "0",
  )
}
