/**
 * Reading and writing cookies, including values too large for one cookie.
 *
 * Browsers drop cookies over 4096 bytes (name, value and attributes together),
 * so a large session token is split into `name.0`, `name.1`, ... and joined on
 * read. Writing always clears the chunks the new value no longer uses, so a
 * session that shrinks leaves nothing stale behind.
 * @module
 */
import { parse, serialize } from "cookie"
import type { Cookie, CookieOption } from "../types.js"

/** Room left for a value once name and attributes are counted; what browsers keep. */
const CHUNK_SIZE = 4096 - 160

/** Parses a `Cookie` header. Malformed pairs are skipped, never thrown on. */
export function parseCookieHeader(header: string | null | undefined): Record<string, string> {
  if (!header) return {}
  try {
    // Values that are not valid percent-encoding are kept as they are by `cookie`.
    return parse(header) as Record<string, string>
  } catch {
    return {}
  }
}

/** The value stored under `name`, whole or as `name.0`, `name.1`, ... chunks. */
export function readChunkedCookie(
  cookies: Record<string, string>,
  name: string,
): string | undefined {
  const whole = cookies[name]
  if (whole !== undefined) return whole
  if (cookies[`${name}.0`] === undefined) return undefined
  let value = ""
  for (let i = 0; ; i++) {
    const chunk = cookies[`${name}.${i}`]
    if (chunk === undefined) break
    value += chunk
  }
  return value
}

/** Names of every chunk of `name` present in the request, including the unchunked one. */
function existingChunkNames(cookies: Record<string, string>, name: string): string[] {
  const prefix = `${name}.`
  return Object.keys(cookies).filter(
    (key) => key === name || (key.startsWith(prefix) && /^\d+$/.test(key.slice(prefix.length))),
  )
}

/**
 * The cookies that store `value` under `option`, split into chunks when needed,
 * plus expired cookies for every chunk the request had that is no longer used.
 */
export function chunkedCookies(
  option: CookieOption,
  value: string,
  requestCookies: Record<string, string>,
  maxAge?: number,
): Cookie[] {
  const options =
    maxAge === undefined
      ? option.options
      : { ...option.options, maxAge, expires: new Date(Date.now() + maxAge * 1000) }
  const written: Cookie[] = []
  if (value.length <= CHUNK_SIZE) {
    written.push({ name: option.name, value, options })
  } else {
    for (let i = 0, n = 0; i < value.length; i += CHUNK_SIZE, n++) {
      written.push({ name: `${option.name}.${n}`, value: value.slice(i, i + CHUNK_SIZE), options })
    }
  }
  const keep = new Set(written.map((c) => c.name))
  for (const stale of existingChunkNames(requestCookies, option.name)) {
    if (!keep.has(stale)) written.push(expiredCookie(option, stale))
  }
  return written
}

/** Expired cookies for `option` and all its chunks present in the request. */
export function clearChunkedCookies(
  option: CookieOption,
  requestCookies: Record<string, string>,
): Cookie[] {
  const names = existingChunkNames(requestCookies, option.name)
  if (names.length === 0) names.push(option.name)
  return names.map((name) => expiredCookie(option, name))
}

export function expiredCookie(option: CookieOption, name = option.name): Cookie {
  return { name, value: "", options: { ...option.options, maxAge: 0, expires: new Date(0) } }
}

/** The `Set-Cookie` header value for a cookie. */
export function serializeCookie(cookie: Cookie): string {
  const { expires, ...rest } = cookie.options
  // `maxAge` wins in browsers; `Expires` is kept for old clients, except for session cookies.
  return serialize(cookie.name, cookie.value, expires ? { ...rest, expires } : rest)
}
