/**
 * The built-in two-factor page: after the first factor, a user with a second
 * factor enters a code from their authenticator app (or a recovery code). The
 * form posts `code` and the CSRF token to `callback/two-factor`.
 * @module
 */
import type { RequestContext } from "../context.js"
import { codeError } from "./code-error.js"
import { csrfField } from "./form-fields.js"
import { html } from "./html.js"
import { renderDocument, type PageContext, type RenderedPage } from "./layout.js"

export interface TwoFactorPageParams {
  action: string
  csrfToken: string
  signInUrl: string
  error?: string
}

export function renderTwoFactorPage(
  _ctx: RequestContext,
  page: PageContext,
  { action, csrfToken, signInUrl, error }: TwoFactorPageParams,
): RenderedPage {
  const { t } = page
  const title = t.t("twoFactor.title")
  const { alert, field } = codeError(t, error, "two-factor-code")
  // The code field has no inputmode="numeric": it takes recovery codes too, whose letters a
  // phone's digits-only keypad lacks.
  const content = () => html`
    <h1>${title}</h1>
    <p>${t.t("twoFactor.prompt")}</p>
    ${alert}
    <form action="${action}" method="POST">
      ${csrfField(csrfToken)}
      <label for="two-factor-code">${t.t("twoFactor.codeLabel")}</label>
      <input id="two-factor-code" name="code" type="text" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="16" required autofocus${field}>
      <button type="submit" data-pending="${t.t("twoFactor.pending")}">${t.t("twoFactor.submit")}</button>
    </form>
    <div class="links">
      <a href="${signInUrl}">${t.t("twoFactor.startOver")}</a>
    </div>`
  return renderDocument(page, title, content)
}
