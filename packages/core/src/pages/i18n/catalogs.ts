/**
 * The built-in catalogs, one module per locale, each imported the first time
 * a page or e-mail needs it: an app whose visitors all read English never loads
 * the other seven (cold start, bundle size).
 * @module
 */
import type { BUILT_IN_LOCALES, Messages } from "./localization.js"

type BuiltIn = (typeof BUILT_IN_LOCALES)[number]

// Literal specifiers, so bundlers see every catalog and split each into its own chunk.
const loaders: Record<BuiltIn, () => Promise<{ default: Messages }>> = {
  en: () => import("./locales/en.js"),
  de: () => import("./locales/de.js"),
  fr: () => import("./locales/fr.js"),
  es: () => import("./locales/es.js"),
  pt: () => import("./locales/pt.js"),
  ru: () => import("./locales/ru.js"),
  ja: () => import("./locales/ja.js"),
  zh: () => import("./locales/zh.js"),
}

/** True if Tessera ships a catalog for `locale` (a bare language: `de`, not `de-CH`). */
export function isBuiltInLocale(locale: string): locale is BuiltIn {
  return Object.hasOwn(loaders, locale)
}

/** The built-in catalog of `locale`. */
export async function loadBuiltInCatalog(locale: BuiltIn): Promise<Readonly<Messages>> {
  return (await loaders[locale]()).default
}
