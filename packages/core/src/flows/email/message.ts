/**
 * The default sign-in e-mail: a plain-text part and an HTML part carrying the
 * same link, or the same one-time code (and, for `method: "both"`, the link
 * too). Exported so a custom `sendVerificationRequest` (an HTTP mail API,
 * say) can send the same message.
 *
 * Every value is escaped in the HTML part: the host comes from the request and
 * the theme from configuration, and neither may inject markup into a mail.
 * @module
 */
import { html } from "../../pages/html.js"
import { cssColor } from "../../pages/layout.js"
import type { Theme } from "../../types.js"

export interface VerificationMessage {
  subject: string
  text: string
  html: string
}

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
  if (code !== undefined) return codeMessage({ url, host, theme, code, link })
  const brand = cssColor(theme.brandColor || "#346df1")
  const buttonText = cssColor(theme.buttonText || "#ffffff")
  // Mail clients ignore <style> blocks and classes: inline styles only, in a table layout.
  const body = html`<!DOCTYPE html><html><body style="background:#f9f9f9;margin:0;padding:20px 0"><table width="100%" border="0" cellspacing="20" cellpadding="0" style="background:#fff;max-width:600px;margin:auto;border-radius:10px"><tr><td align="center" style="padding:10px 0;font-size:22px;font-family:Helvetica,Arial,sans-serif;color:#444">Sign in to <strong>${host}</strong></td></tr><tr><td align="center" style="padding:20px 0"><table border="0" cellspacing="0" cellpadding="0"><tr><td align="center" style="border-radius:5px" bgcolor="${brand}"><a href="${url}" target="_blank" style="font-size:18px;font-family:Helvetica,Arial,sans-serif;color:${buttonText};text-decoration:none;border-radius:5px;padding:10px 20px;border:1px solid ${brand};display:inline-block;font-weight:bold">Sign in</a></td></tr></table></td></tr><tr><td align="center" style="padding:0 0 10px 0;font-size:16px;line-height:22px;font-family:Helvetica,Arial,sans-serif;color:#444">If you did not request this e-mail you can safely ignore it.</td></tr></table></body></html>`
  return {
    subject: `Sign in to ${host}`,
    text: `Sign in to ${host}\n\n${url}\n\nIf you did not request this e-mail you can safely ignore it.\n`,
    html: body.value,
  }
}

const FONT = "font-family:Helvetica,Arial,sans-serif"

/** The code mail: the code in large type, and the sign-in button when the mail has a link too. */
function codeMessage({
  url,
  host,
  theme,
  code,
  link,
}: {
  url: string
  host: string
  theme: Theme
  code: string
  link: boolean
}): VerificationMessage {
  const brand = cssColor(theme.brandColor || "#346df1")
  const buttonText = cssColor(theme.buttonText || "#ffffff")
  const button = link
    ? html`<tr><td align="center" style="padding:10px 0 20px 0;font-size:16px;${FONT};color:#444">or</td></tr><tr><td align="center" style="padding:0 0 20px 0"><table border="0" cellspacing="0" cellpadding="0"><tr><td align="center" style="border-radius:5px" bgcolor="${brand}"><a href="${url}" target="_blank" style="font-size:18px;${FONT};color:${buttonText};text-decoration:none;border-radius:5px;padding:10px 20px;border:1px solid ${brand};display:inline-block;font-weight:bold">Sign in</a></td></tr></table></td></tr>`
    : ""
  const body = html`<!DOCTYPE html><html><body style="background:#f9f9f9;margin:0;padding:20px 0"><table width="100%" border="0" cellspacing="20" cellpadding="0" style="background:#fff;max-width:600px;margin:auto;border-radius:10px"><tr><td align="center" style="padding:10px 0;font-size:22px;${FONT};color:#444">Sign in to <strong>${host}</strong></td></tr><tr><td align="center" style="padding:0;font-size:16px;${FONT};color:#444">Your sign-in code:</td></tr><tr><td align="center" style="padding:10px 0 20px 0;font-size:32px;letter-spacing:6px;font-family:Menlo,Consolas,monospace;font-weight:bold;color:#111">${code}</td></tr>${button}<tr><td align="center" style="padding:0 0 10px 0;font-size:16px;line-height:22px;${FONT};color:#444">The code works once, for 10 minutes. If you did not request this e-mail you can safely ignore it.</td></tr></table></body></html>`
  const linkText = link ? `\n\nOr sign in with this link:\n${url}` : ""
  return {
    subject: `Sign in to ${host}`,
    text: `Sign in to ${host}\n\nYour sign-in code: ${code}${linkText}\n\nThe code works once, for 10 minutes. If you did not request this e-mail you can safely ignore it.\n`,
    html: body.value,
  }
}
