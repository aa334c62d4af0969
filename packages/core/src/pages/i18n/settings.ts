/**
 * Checks the language options of `theme` once, when the configuration is
 * resolved: `locale` and `locales` must be well-formed BCP 47 tags with strings
 * behind them (a built-in catalog for the tag or one of its prefixes, or
 * overrides in `messages`); `messages` may only name known keys, with string
 * values that use only the placeholders of the English string. Anything else is
 * an `InvalidConfiguration` that names the option, the locale and the key.
 * @module
 */
import { InvalidConfiguration } from "../../errors.js"
import type { Theme } from "../../types.js"
import { isBuiltInLocale } from "./catalogs.js"
import {
  BUILT_IN_LOCALES,
  type Localization,
  type MessageKey,
  type Messages,
} from "./localization.js"
import en from "./locales/en.js"
import { prefixesOf } from "./translator.js"

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === "object" &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value))

/** The canonical form of a language tag (`pt-br` -> `pt-BR`), or an error naming `option`. */
function languageTag(value: unknown, option: string): string {
  let canonical: string | undefined
  if (typeof value === "string") {
    try {
      canonical = Intl.getCanonicalLocales(value)[0]
    } catch {
      canonical = undefined
    }
  }
  // A two- or three-letter language first: "english" is well formed but names no language.
  if (!canonical || !/^[a-z]{2,3}(-|$)/.test(canonical)) {
    throw new InvalidConfiguration(
      `${option} must be a BCP 47 language tag such as "de" or "pt-BR", got ${JSON.stringify(value)}`,
    )
  }
  return canonical
}

const placeholders = (text: string) => new Set(text.match(/\{\w+\}/g) ?? [])

function checkMessages(locale: string, strings: unknown): Partial<Messages> {
  const option = `theme.messages["${locale}"]`
  if (!isPlainObject(strings)) {
    throw new InvalidConfiguration(`${option} must be an object of strings by message key`)
  }
  const checked: Partial<Messages> = {}
  for (const [key, value] of Object.entries(strings)) {
    if (!Object.hasOwn(en, key)) {
      throw new InvalidConfiguration(
        `${option} has an unknown message key "${key}" (the keys are listed in docs/pages.md)`,
      )
    }
    if (typeof value !== "string") {
      throw new InvalidConfiguration(`${option}["${key}"] must be a string`)
    }
    const allowed = placeholders(en[key as MessageKey])
    const unknown = [...placeholders(value)].filter((p) => !allowed.has(p))
    if (unknown.length) {
      throw new InvalidConfiguration(
        `${option}["${key}"] uses ${unknown.join(", ")}; this string can use ${[...allowed].join(", ") || "no placeholder"}`,
      )
    }
    checked[key as MessageKey] = value
  }
  return checked
}

function checkOverrides(messages: unknown): Map<string, Readonly<Partial<Messages>>> {
  const overrides = new Map<string, Readonly<Partial<Messages>>>()
  if (messages === undefined) return overrides
  if (!isPlainObject(messages)) {
    throw new InvalidConfiguration("theme.messages must be an object of strings by locale")
  }
  for (const [tag, strings] of Object.entries(messages)) {
    const locale = languageTag(tag, `theme.messages key "${tag}"`)
    if (overrides.has(locale)) {
      throw new InvalidConfiguration(`theme.messages names the locale "${locale}" twice`)
    }
    overrides.set(locale, Object.freeze(checkMessages(tag, strings)))
  }
  return overrides
}

/** A locale that has strings behind it: a built-in catalog or overrides for it or a prefix. */
function servable(value: unknown, option: string, overrides: ReadonlyMap<string, unknown>): string {
  const locale = languageTag(value, option)
  if (!prefixesOf(locale).some((tag) => isBuiltInLocale(tag) || overrides.has(tag))) {
    throw new InvalidConfiguration(
      `${option} is "${locale}", which has no strings: the built-in locales are ${BUILT_IN_LOCALES.join(", ")}; add the others with theme.messages["${locale}"]`,
    )
  }
  return locale
}

/**
 * The checked localization of `theme`.
 *
 * @param theme The app's theme, with at least one of `locale`, `locales`, `messages`.
 */
export function checkedLocalization(theme: Theme): Localization {
  const overrides = checkOverrides(theme.messages)
  const fixed =
    theme.locale === undefined ? undefined : servable(theme.locale, "theme.locale", overrides)
  let available: string[]
  if (theme.locales !== undefined) {
    if (!Array.isArray(theme.locales) || theme.locales.length === 0) {
      throw new InvalidConfiguration("theme.locales must be a non-empty array of language tags")
    }
    available = theme.locales.map((locale, i) => servable(locale, `theme.locales[${i}]`, overrides))
  } else {
    available = [...new Set([...BUILT_IN_LOCALES, ...overrides.keys()])]
  }
  return {
    fixed,
    available,
    fallback: theme.locales !== undefined ? available[0]! : "en",
    overrides,
    translators: new Map(),
  }
}
