/**
 * The default sign-in e-mail: a plain-text part and an HTML part carrying the
 * same link, or the same one-time code (and, for `method: "both"`, the link
 * too), in the language of the request that asked for it. Exported so a
 * custom `sendVerificationRequest` (an HTTP mail API, say) can send the same
 * message.
 *
 * Every value is escaped in the HTML part: the host comes from the request and
 * the theme (strings included) from configuration, and neither may inject
 * markup into a mail.
 * @module
 */
import { contrastingText, cssColor } from "../../pages/colors.js"
import { html, type SafeHtml } from "../../pages/html.js"
import { textDirection } from "../../pages/i18n/direction.js"
import type { MessageKey, Messages } from "../../pages/i18n/localization.js"
import en from "../../pages/i18n/locales/en.js"
import { format } from "../../pages/i18n/translator.js"
import type { Theme } from "../../types.js"

export interface VerificationMessage {
  subject: string
  text: string
  html: string
}

/**
 * The strings for `theme.locale`: English, under the app's English overrides,
 * under `theme.messages[locale]`. The e-mail flow passes a theme whose
 * `messages[locale]` is the locale's complete catalog; a theme without it
 * gets English.
 */
function stringsOf(theme: Theme): { locale: string; strings: Messages } {
  const locale = theme.locale ?? "en"
  const own = theme.messages ?? {}
  const strings: Messages = { ...en, ...own.en, ...(locale === "en" ? {} : own[locale]) }
  return { locale, strings }
}

const FONT = "font-family:Helvetica,Arial,sans-serif"
const TEXT = `font-size:16px;line-height:22px;${FONT};color:#444`

/**
 * @example
 * ```ts
 * import { verificationMessage } from "@tessera/core/providers/nodemailer"
 * const { subject, text, html } = verificationMessage({ url, host: new URL(url).host, theme, code })
 * ```
 */
export function verificationMessage({
  url,
  host,
  theme = {},
  code,
  link = true,
}: {
  url: string
  host: string
  theme?: Theme
  /** The one-time code to show, for providers with `method: "code"` or `"both"`. */
  code?: string
  /** Whether the mail carries `url` as a sign-in button: yes for links, no for code-only mails. */
  link?: boolean
}): VerificationMessage {
  const { locale, strings } = stringsOf(theme)
  const t = (key: MessageKey) => format(strings[key], { host })
  const brand = cssColor(theme.brandColor || "#346df1")
  const buttonText = cssColor(theme.buttonText || contrastingText(brand) || "#ffffff")
  const button = html`
    <table border="0" cellspacing="0" cellpadding="0">
      <tr>
        <td align="center" style="border-radius:5px" bgcolor="${brand}">
          <a href="${url}" target="_blank" style="font-size:18px;${FONT};color:${buttonText};text-decoration:none;border-radius:5px;padding:10px 20px;border:1px solid ${brand};display:inline-block;font-weight:bold">${t("mail.button")}</a>
        </td>
      </tr>
    </table>`
  const row = (style: string, content: SafeHtml | string) => html`
    <tr>
      <td align="center" style="${style}">${content}</td>
    </tr>`
  let rows: SafeHtml[]
  let text: string
  if (code === undefined) {
    rows = [row("padding:20px 0", button), row(`padding:0 0 10px 0;${TEXT}`, t("mail.ignore"))]
    text = `${t("mail.heading")}\n\n${url}\n\n${t("mail.ignore")}\n`
  } else {
    // The code in large type; the sign-in button too when the mail has a link.
    rows = [
      row(`padding:0;${TEXT}`, t("mail.code")),
      row(
        "padding:10px 0 20px 0;font-size:32px;letter-spacing:6px;font-family:Menlo,Consolas,monospace;font-weight:bold;color:#111",
        code,
      ),
      ...(link
        ? [row(`padding:10px 0 20px 0;${TEXT}`, t("mail.or")), row("padding:0 0 20px 0", button)]
        : []),
      row(`padding:0 0 10px 0;${TEXT}`, `${t("mail.codeOnce")} ${t("mail.ignore")}`),
    ]
    const linkText = link ? `\n\n${t("mail.orLink")}\n${url}` : ""
    text = `${t("mail.heading")}\n\n${t("mail.code")} ${code}${linkText}\n\n${t("mail.codeOnce")} ${t("mail.ignore")}\n`
  }
  // Mail clients ignore <style> blocks and classes: inline styles only, in a table layout.
  const body = html`<!DOCTYPE html>
    <html lang="${locale}" dir="${textDirection(locale)}">
      <body style="background:#f9f9f9;margin:0;padding:20px 0">
        <table width="100%" border="0" cellspacing="20" cellpadding="0" style="background:#fff;max-width:600px;margin:auto;border-radius:10px">
          ${row(`padding:10px 0;font-size:22px;${FONT};color:#444`, t("mail.heading"))}
          ${rows}
        </table>
      </body>
    </html>`
  return { subject: t("mail.subject"), text, html: body.value }
}
