/**
 * The writing direction of a locale, for `<html dir>`: right-to-left for the
 * languages (and scripts) written that way, left-to-right for the rest.
 * @module
 */

// Languages whose usual script runs right to left (ISO 639).
const RTL_LANGUAGES = new Set([
  "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "lrc", "mzn", "nqo", "ps", "sd", "syr",
  "ug", "ur", "yi",
]) // prettier-ignore
// Scripts that run right to left (ISO 15924), for tags that name one (`az-Arab`, `ku-Arab`).
const RTL_SCRIPTS = new Set([
  "adlm",
  "arab",
  "hebr",
  "mand",
  "nkoo",
  "rohg",
  "samr",
  "syrc",
  "thaa",
])

/**
 * `"rtl"` or `"ltr"` for a BCP 47 tag.
 *
 * @param locale A tag such as `ar`, `he-IL` or `az-Arab`.
 */
export function textDirection(locale: string): "ltr" | "rtl" {
  const [language = "", ...subtags] = locale.toLowerCase().split("-")
  const script = subtags.find((subtag) => subtag.length === 4 && /^[a-z]+$/.test(subtag))
  if (script) return RTL_SCRIPTS.has(script) ? "rtl" : "ltr"
  return RTL_LANGUAGES.has(language) ? "rtl" : "ltr"
}
