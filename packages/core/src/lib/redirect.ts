/**
 * Keeps redirects on the application's origin.
 *
 * The URL is resolved the way a browser resolves it (WHATWG URL parsing, which
 * also strips tabs and newlines and turns `\` into `/`), and then its origin is
 * compared. That single rule rejects every trick at once: `//evil`, `/\evil`,
 * `https:evil`, `javascript:`, `%2F%2Fevil` once decoded, and userinfo.
 * @module
 */

/** `url` resolved against `baseUrl` if it stays on `baseUrl`'s origin, otherwise `undefined`. */
export function sameOriginUrl(url: string, baseUrl: string): string | undefined {
  if (typeof url !== "string" || url.length > 4096) return undefined
  let base: URL
  let target: URL
  try {
    base = new URL(baseUrl)
    target = new URL(url, base)
  } catch {
    return undefined
  }
  if (target.origin !== base.origin || target.username || target.password) return undefined
  return target.href
}
