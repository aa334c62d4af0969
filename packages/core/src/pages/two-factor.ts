/**
 * The built-in two-factor page: after the first factor, a user with a second
 * factor enters a code from their authenticator app (or a recovery code). The
 * form posts `code` and the CSRF token to `callback/two-factor`.
 * @module
 */
import type { RequestContext } from "../context.js"
import { html } from "./html.js"
import { renderDocument, type RenderedPage } from "./layout.js"
import { codeErrorMessages, pageText } from "./messages.js"

export interface TwoFactorPageParams {
  action: string
  csrfToken: string
  signInUrl: string
  error?: string
}

export function renderTwoFactorPage(
  ctx: RequestContext,
  { action, csrfToken, signInUrl, error }: TwoFactorPageParams,
): RenderedPage {
  const text = pageText.twoFactor
  const message = error
    ? ((Object.hasOwn(codeErrorMessages, error) ? codeErrorMessages[error] : undefined) ??
      codeErrorMessages.default)
    : undefined
  const body = html`<h1>${text.heading}</h1><p>${text.prompt}</p>${message ? html`<div class="error" role="alert">${message}</div>` : ""}<form action="${action}" method="POST"><input type="hidden" name="csrfToken" value="${csrfToken}"><label for="two-factor-code">${text.codeLabel}</label><input id="two-factor-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" autocapitalize="none" spellcheck="false" maxlength="16" required autofocus><button type="submit">${text.submit}</button></form><p><a href="${signInUrl}">${text.startOver}</a></p>`
  return renderDocument(ctx.config.theme, text.title, () => body)
}
