/**
 * The language of the built-in pages and e-mails, as a resolved configuration
 * holds it: the fixed locale or the set negotiated from `Accept-Language`, the
 * app's string overrides, and the catalogs merged so far (per configuration).
 *
 * This module is small on purpose: it is loaded with every configuration, while
 * the catalogs (`locales/*.ts`) are loaded on first use of their locale and the
 * validation of the `theme` options (`settings.ts`) only when the app sets them.
 * @module
 */
import type en from "./locales/en.js"
import type { Theme } from "../../types.js"

/** The name of a string of the built-in pages and e-mails, e.g. `"signIn.title"`. */
export type MessageKey = keyof typeof en

/** A complete catalog: every string, in one language. */
export type Messages = Record<MessageKey, string>

/** The locales Tessera ships catalogs for. */
export const BUILT_IN_LOCALES = ["en", "de", "fr", "es", "pt", "ru", "ja", "zh"] as const

/** Strings in one locale, ready to use: `t("signIn.with", { provider: "GitHub" })`. */
export interface Translator {
  /** The locale's tag, one of the configured ones (never text from the request). */
  readonly locale: string
  readonly dir: "ltr" | "rtl"
  /** Every string of the locale, overrides applied. */
  readonly messages: Readonly<Messages>
  /** The string `key`, with `{name}` replaced by `values.name`. */
  t(key: MessageKey, values?: Readonly<Record<string, string>>): string
}

export interface Localization {
  /** `theme.locale`: every page and e-mail in this locale. */
  readonly fixed: string | undefined
  /** What `Accept-Language` is matched against. */
  readonly available: readonly string[]
  /** The locale when nothing matches. */
  readonly fallback: string
  /** `theme.messages`, by canonical locale tag, checked. */
  readonly overrides: ReadonlyMap<string, Readonly<Partial<Messages>>>
  /** Merged catalogs, by locale, made on first use. */
  readonly translators: Map<string, Promise<Translator>>
}

/** The settings of an app that sets no language option: negotiate among the built-in locales. */
export function defaultLocalization(): Localization {
  return {
    fixed: undefined,
    available: BUILT_IN_LOCALES,
    fallback: "en",
    overrides: new Map(),
    translators: new Map(),
  }
}

/**
 * The localization of `theme`. The checks (and the English catalog they need)
 * are loaded only when the app sets `locale`, `locales` or `messages`.
 */
export async function resolveLocalization(theme: Theme | undefined): Promise<Localization> {
  if (theme?.locale === undefined && theme?.locales === undefined && theme?.messages === undefined)
    return defaultLocalization()
  const { checkedLocalization } = await import("./settings.js")
  return checkedLocalization(theme)
}
