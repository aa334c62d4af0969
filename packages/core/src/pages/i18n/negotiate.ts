/**
 * Picks the locale of a page from the request's `Accept-Language` (RFC 9110
 * §12.5.4): ranges by quality, each looked up as RFC 4647 §3.4 "lookup" does
 * (`de-CH` -> `de`), among the configured locales. The answer is always one of
 * those (never text from the header), so nothing a client sends reaches `lang`.
 * @module
 */

/** Longer headers are cut: no browser sends this many preferences. */
const MAX_HEADER = 1024
const MAX_RANGES = 32
const RANGE = /^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/
const QUALITY = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/

interface Range {
  tag: string
  q: number
}

/** The ranges of an `Accept-Language` value, best first (ties keep their order); q=0 dropped. */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return []
  const ranges: Range[] = []
  for (const part of header.slice(0, MAX_HEADER).split(",").slice(0, MAX_RANGES)) {
    const [rawTag = "", ...params] = part.split(";").map((s) => s.trim())
    const tag = rawTag.toLowerCase()
    if (!RANGE.test(tag)) continue
    let q = 1
    const quality = params.find((p) => /^q=/i.test(p))
    if (quality !== undefined) {
      if (!QUALITY.test(quality.toLowerCase())) continue
      q = Number(quality.slice(2))
    }
    if (q > 0) ranges.push({ tag, q })
  }
  return ranges
    .map((range, i) => ({ ...range, i }))
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((range) => range.tag)
}

/**
 * The locale for `header` among `available` (canonical tags), else `fallback`.
 *
 * @param header The `Accept-Language` request header.
 * @param available The locales the app serves.
 * @param fallback The answer when no range matches.
 */
export function negotiateLocale(
  header: string | null | undefined,
  available: readonly string[],
  fallback: string,
): string {
  const byLowerCase = new Map(available.map((locale) => [locale.toLowerCase(), locale]))
  for (const range of parseAcceptLanguage(header)) {
    if (range === "*") return fallback
    let tag = range
    for (;;) {
      const found = byLowerCase.get(tag)
      if (found) return found
      const cut = tag.lastIndexOf("-")
      if (cut < 0) break
      tag = tag.slice(0, cut)
      // A singleton (the "x" of "-x-private") never ends a lookup: drop it too.
      if (tag.length > 1 && tag.at(-2) === "-") tag = tag.slice(0, -2)
    }
  }
  return fallback
}
