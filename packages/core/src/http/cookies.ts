/**
 * Reading and writing cookies, including values too large for one cookie.
 *
 * Browsers drop cookies over 4096 bytes (name, value and attributes together),
 * so a large session token is split into `name.0`, `name.1`, ... and joined on
 * read. Writing always clears the chunks the new value no longer uses, so a
 * session that shrinks leaves nothing stale behind.
 *
 * The `Cookie` header is parsed and `Set-Cookie` written here (RFC 6265), as
 * the `cookie` package does it (same trimming, first value wins, values
 * percent-decoded when they decode, the same checks on what is written): a
 * CommonJS dependency cost a cold start more than the rest of this module.
 * @module
 */
import type { Cookie, CookieOption } from "../types.js"

/** Room left for a value once name and attributes are counted; what browsers keep. */
const CHUNK_SIZE = 4096 - 160

/** `str` from `start` to `end` without the spaces and tabs around it. */
function trimmed(str: string, start: number, end: number): string {
  while (start < end && (str.charCodeAt(start) === 0x20 || str.charCodeAt(start) === 0x09)) start++
  while (end > start && (str.charCodeAt(end - 1) === 0x20 || str.charCodeAt(end - 1) === 0x09))
    end--
  return str.slice(start, end)
}

/** Percent-decoded; a value that is not valid percent-encoding is kept as it is. */
function decodeValue(value: string): string {
  if (!value.includes("%")) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * Objects with no prototype, made by a constructor: V8 keeps those in its fast
 * shape-based mode, where `Object.create(null)` starts in dictionary mode (a
 * session check's cookie parse took four times as long).
 */
const CookieRecord = /* @__PURE__ */ (() => {
  const record = function () {} as unknown as { new (): Record<string, string> }
  record.prototype = Object.create(null) as Record<string, string>
  return record
})()

/**
 * Parses a `Cookie` header into a record without a prototype (a cookie named
 * `__proto__` is just a cookie). The first value of a name wins; a pair
 * without `=` is skipped. Never throws.
 */
export function parseCookieHeader(header: string | null | undefined): Record<string, string> {
  const cookies = new CookieRecord()
  if (!header || header.length < 2) return cookies
  const length = header.length
  let index = 0
  while (index < length) {
    const eq = header.indexOf("=", index)
    if (eq === -1) break
    const semicolon = header.indexOf(";", index)
    const end = semicolon === -1 ? length : semicolon
    if (eq > end) {
      // This pair has no `=`: skip it.
      index = header.lastIndexOf(";", eq - 1) + 1
      continue
    }
    const name = trimmed(header, index, eq)
    if (cookies[name] === undefined) cookies[name] = decodeValue(trimmed(header, eq + 1, end))
    index = end + 1
  }
  return cookies
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
 * How long a session cookie lives: what is left of the session, or less if the app's own
 * options set a shorter `maxAge` (Auth.js writes the app's cookie options as given, so such a
 * cookie ends when the app said). Never longer than the session.
 */
export function sessionCookieMaxAge(option: CookieOption, remaining: number): number {
  const own = option.options.maxAge
  return typeof own === "number" && own < remaining ? Math.max(0, own) : remaining
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

const NAME = /^[\u0021-\u003A\u003C\u003E-\u007E]+$/
const VALUE = /^[\u0021-\u003A\u003C-\u007E]*$/
const DOMAIN = /^([.]?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)([.][a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
const PATH = /^[\u0020-\u003A\u003D-\u007E]*$/
const PRIORITIES: Record<string, string> = { low: "Low", medium: "Medium", high: "High" }
const SAME_SITE: Record<string, string> = { strict: "Strict", lax: "Lax", none: "None" }

function invalid(what: string, value: unknown): never {
  throw new TypeError(`Cookie ${what} is invalid: ${String(value)}`)
}

/**
 * The `Set-Cookie` header value for a cookie. Throws a `TypeError` for a name,
 * value or attribute that cannot be written (a configuration mistake).
 */
export function serializeCookie(cookie: Cookie): string {
  const { name, value: raw, options } = cookie
  const encode: (value: string) => string = options.encode ?? encodeURIComponent
  if (!NAME.test(name)) invalid("name", name)
  const value = raw ? encode(raw) : ""
  if (!VALUE.test(value)) invalid("value", raw)
  let header = `${name}=${value}`
  const { maxAge, domain, path, expires, priority, sameSite } = options
  if (maxAge !== undefined) {
    if (!Number.isInteger(maxAge)) invalid("maxAge", maxAge)
    header += `; Max-Age=${maxAge}`
  }
  if (domain) {
    if (!DOMAIN.test(domain)) invalid("domain", domain)
    header += `; Domain=${domain}`
  }
  if (path) {
    if (!PATH.test(path)) invalid("path", path)
    header += `; Path=${path}`
  }
  // `Max-Age` wins in browsers; `Expires` is kept for old clients, except for session cookies.
  if (expires) {
    if (!(expires instanceof Date) || !Number.isFinite(expires.valueOf()))
      invalid("expires", expires)
    header += `; Expires=${expires.toUTCString()}`
  }
  if (options.httpOnly) header += "; HttpOnly"
  if (options.secure) header += "; Secure"
  if (options.partitioned) header += "; Partitioned"
  if (priority) {
    const written = typeof priority === "string" ? PRIORITIES[priority.toLowerCase()] : undefined
    if (!written) invalid("priority", priority)
    header += `; Priority=${written}`
  }
  if (sameSite) {
    const written =
      sameSite === true
        ? "Strict"
        : typeof sameSite === "string"
          ? SAME_SITE[sameSite.toLowerCase()]
          : undefined
    if (!written) invalid("sameSite", sameSite)
    header += `; SameSite=${written}`
  }
  return header
}
