/**
 * The error of a code form (the e-mail code, the two-factor code), tied to its
 * field: the field is described by the message, and marked invalid when the
 * code itself was refused. The field has the focus when the page opens, so a
 * screen reader reads the message with it (an alert already on the page when it
 * loads is not announced).
 * @module
 */
import { html, type SafeHtml } from "./html.js"
import type { Translator } from "./i18n/localization.js"
import { codeErrorKey } from "./messages.js"

/** The `error` values that mean the code entered was wrong (not, say, a rate limit). */
const REFUSED = new Set(["Verification", "TwoFactor"])

/** A code form's error: the alert to show, and the attributes its field gets. */
export function codeError(
  t: Translator,
  error: string | undefined,
  fieldId: string,
): { alert: SafeHtml | ""; field: SafeHtml | "" } {
  if (!error) return { alert: "", field: "" }
  const id = `${fieldId}-error`
  return {
    alert: html`<div id="${id}" class="error" role="alert">${t.t(codeErrorKey(error))}</div>`,
    field: html`${REFUSED.has(error) ? html` aria-invalid="true"` : ""} aria-describedby="${id}"`,
  }
}
