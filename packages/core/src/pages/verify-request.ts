/**
 * "Check your email": after a link was mailed, a note; after a one-time code
 * was mailed (`method: "code"` or `"both"`), the form to enter it, posted with
 * the address and the CSRF token to the provider's callback.
 * @module
 */
import type { RequestContext } from "../context.js"
import { html } from "./html.js"
import { renderDocument, type RenderedPage } from "./layout.js"
import { codeErrorMessages, pageText } from "./messages.js"

export interface CodeFormParams {
  /** Where the form posts: the provider's callback. */
  action: string
  csrfToken: string
  email?: string
  error?: string
}

export function renderVerifyRequestPage(
  ctx: RequestContext,
  codeForm?: CodeFormParams,
): RenderedPage {
  const text = pageText.verifyRequest
  if (!codeForm) {
    const body = html`<h1>${text.heading}</h1><p>${text.link}</p><a class="button" href="${ctx.origin}">${ctx.request.url.host}</a>`
    return renderDocument(ctx.config.theme, text.title, () => body)
  }
  const { action, csrfToken, email, error } = codeForm
  const message = error
    ? ((Object.hasOwn(codeErrorMessages, error) ? codeErrorMessages[error] : undefined) ??
      codeErrorMessages.default)
    : undefined
  const body = html`<h1>${text.heading}</h1><p>${text.code}</p>${message ? html`<div class="error" role="alert">${message}</div>` : ""}<form action="${action}" method="POST"><input type="hidden" name="csrfToken" value="${csrfToken}"><label for="verify-email">${text.emailLabel}</label><input id="verify-email" type="email" name="email" autocomplete="email" required${email ? html` value="${email}"` : ""}><label for="verify-code">${text.codeLabel}</label><input id="verify-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 -]{8,12}" maxlength="12" required autofocus><button type="submit">${text.submit}</button></form>`
  return renderDocument(ctx.config.theme, text.title, () => body)
}
