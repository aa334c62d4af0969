/**
 * Core's cookies (`{ name, value, options }`) onto SvelteKit's `event.cookies`.
 * @module
 */
import type { Cookies } from "@sveltejs/kit"
import type { Cookie } from "@tessera/core/types"

type CookieOptions = Parameters<Cookies["set"]>[2]

/**
 * Sets each cookie exactly as core would have written it. SvelteKit's own
 * defaults differ (`Secure` unless the host is `localhost`, `HttpOnly`), so the
 * attributes core leaves out are left out explicitly: a `Secure` cookie on a
 * plain-http LAN address would be dropped by the browser.
 */
export function applyCookies(cookies: Cookies, list: readonly Cookie[] | undefined): void {
  for (const { name, value, options } of list ?? []) {
    cookies.set(name, value, {
      ...options,
      path: options.path ?? "/",
      secure: options.secure ?? false,
      httpOnly: options.httpOnly ?? false,
    } as CookieOptions)
  }
}

/** The request's cookies as a record, including any set earlier in this request. */
export function cookieRecord(cookies: Cookies): Record<string, string> {
  const record: Record<string, string> = {}
  for (const { name, value } of cookies.getAll()) record[name] = value
  return record
}
