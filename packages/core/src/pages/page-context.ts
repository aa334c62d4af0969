/**
 * What a page is rendered with for one request: the configuration's theme and
 * the strings in the request's language (the configured locale, or the one
 * negotiated from `Accept-Language`).
 * @module
 */
import type { RequestContext } from "../context.js"
import type { Theme } from "../types.js"
import { defaultLocalization, type Localization } from "./i18n/localization.js"
import { translatorFor } from "./i18n/translator.js"
import type { PageContext } from "./layout.js"

/** The page context of a request to a working configuration. */
export async function pageContextOf(ctx: RequestContext): Promise<PageContext> {
  const t = await translatorFor(ctx.config.localization, ctx.request.headers.get("accept-language"))
  return { theme: ctx.config.theme, t }
}

/** For requests whose configuration is broken: the built-in strings, negotiated; no overrides. */
let builtIn: Localization | undefined

/** The page context when no configuration could be resolved: default theme, built-in strings. */
export async function fallbackPageContext(request: Request): Promise<PageContext> {
  builtIn ??= defaultLocalization()
  const theme: Theme = { colorScheme: "auto" }
  return { theme, t: await translatorFor(builtIn, request.headers.get("accept-language")) }
}
