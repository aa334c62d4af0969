/**
 * The built-in two-factor page: after the first factor, a user with a second
 * factor enters a code from their authenticator app (or a recovery code). The
 * form posts `code` and the CSRF token to `callback/two-factor`. When the
 * pending user has passkeys and a WebAuthn provider is configured, a "Use a
 * passkey" button answers the step with a passkey instead (`passkeys`: the
 * buttons and the script's head, from the WebAuthn flow).
 * @module
 */
import type { RequestContext } from "../context.js"
import { codeError } from "./code-error.js"
import { csrfField } from "./form-fields.js"
import { html, type SafeHtml } from "./html.js"
import { renderDocument, type PageContext, type RenderedPage } from "./layout.js"

export interface TwoFactorPageParams {
  action: string
  csrfToken: string
  signInUrl: string
  error?: string
  /** The passkey buttons and their script, when the pending user can use a passkey. */
  passkeys?: { buttons: SafeHtml; head: (nonce: string) => SafeHtml }
}

export function renderTwoFactorPage(
  _ctx: RequestContext,
  page: PageContext,
  { action, csrfToken, signInUrl, error, passkeys }: TwoFactorPageParams,
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
    ${passkeys ? html`<p class="divider">${t.t("signIn.or")}</p>${passkeys.buttons}` : ""}
    <div class="links">
      <a href="${signInUrl}">${t.t("twoFactor.startOver")}</a>
    </div>`
  return renderDocument(page, title, content, passkeys?.head)
}
