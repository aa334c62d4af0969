/**
 * A minimal cookie jar for test "browsers" that talk HTTP with `fetch`: one
 * value per cookie name, no domain or path matching (a test talks to one
 * site at a time, and Tessera's cookies all use `Path=/`).
 * @module
 */

/**
 * Stores the `Set-Cookie` lines of `headers` in `jar`; an expired or emptied cookie is removed.
 *
 * @param jar Cookie name -> value.
 * @param headers The response's headers.
 * @see [RFC 6265 §4.1, Set-Cookie](https://www.rfc-editor.org/rfc/rfc6265.html#section-4.1)
 */
export function storeCookies(jar: Map<string, string>, headers: Headers): void {
  for (const line of headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(";")
    const eq = pair!.indexOf("=")
    if (eq < 1) continue
    const name = pair!.slice(0, eq).trim()
    const value = pair!.slice(eq + 1).trim()
    const expired = attributes.some((attribute) => {
      const at = attribute.indexOf("=")
      const key = attribute
        .slice(0, at < 0 ? undefined : at)
        .trim()
        .toLowerCase()
      const v = at < 0 ? "" : attribute.slice(at + 1).trim()
      return (
        (key === "max-age" && Number(v) <= 0) || (key === "expires" && Date.parse(v) < Date.now())
      )
    })
    if (expired || value === "") jar.delete(name)
    else jar.set(name, value)
  }
}

/**
 * The `Cookie` header for what `jar` holds, or `undefined` when it is empty.
 *
 * @param jar Cookie name -> value.
 * @see [RFC 6265 §5.4, The Cookie Header](https://www.rfc-editor.org/rfc/rfc6265.html#section-5.4)
 */
export function cookieHeader(jar: ReadonlyMap<string, string>): string | undefined {
  if (jar.size === 0) return undefined
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
}
