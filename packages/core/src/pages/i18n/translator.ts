/**
 * The strings of one request: the locale is the configured one or negotiated
 * from `Accept-Language`; its catalog is English, then the built-in catalog of
 * each of the tag's prefixes (`pt` for `pt-BR`), each followed by the app's
 * overrides for it. Merged once per configuration and locale.
 * @module
 */
import { isBuiltInLocale, loadBuiltInCatalog } from "./catalogs.js"
import { textDirection } from "./direction.js"
import type { Localization, MessageKey, Messages, Translator } from "./localization.js"
import { negotiateLocale } from "./negotiate.js"

/** `"pt-BR"` -> `["pt", "pt-BR"]`: the tag's prefixes, shortest first. */
export function prefixesOf(locale: string): string[] {
  const subtags = locale.split("-")
  return subtags.map((_, i) => subtags.slice(0, i + 1).join("-"))
}

/** `template` with each `{name}` replaced by `values.name` (plain text in, plain text out). */
export function format(template: string, values?: Readonly<Record<string, string>>): string {
  if (!values) return template
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  )
}

/**
 * A translator over a complete catalog.
 *
 * @param locale The catalog's tag.
 * @param messages Every string.
 */
export function translatorOf(locale: string, messages: Readonly<Messages>): Translator {
  return {
    locale,
    dir: textDirection(locale),
    messages,
    t: (key: MessageKey, values) => format(messages[key], values),
  }
}

async function merged(localization: Localization, locale: string): Promise<Translator> {
  const messages: Messages = { ...(await loadBuiltInCatalog("en")) }
  Object.assign(messages, localization.overrides.get("en"))
  for (const tag of prefixesOf(locale)) {
    if (isBuiltInLocale(tag) && tag !== "en") Object.assign(messages, await loadBuiltInCatalog(tag))
    if (tag !== "en") Object.assign(messages, localization.overrides.get(tag))
  }
  return translatorOf(locale, Object.freeze(messages))
}

/**
 * The translator for a request with this `Accept-Language` header.
 *
 * @param localization The resolved configuration's settings.
 * @param acceptLanguage The request's `Accept-Language` header.
 */
export function translatorFor(
  localization: Localization,
  acceptLanguage: string | null | undefined,
): Promise<Translator> {
  const locale =
    localization.fixed ??
    negotiateLocale(acceptLanguage, localization.available, localization.fallback)
  let pending = localization.translators.get(locale)
  if (!pending) {
    pending = merged(localization, locale)
    localization.translators.set(locale, pending)
    // A failed import is not remembered: the next request tries again.
    void pending.catch(() => localization.translators.delete(locale))
  }
  return pending
}
