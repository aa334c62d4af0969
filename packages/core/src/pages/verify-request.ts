/**
 * "Check your email": after a link was mailed, a note with a way back to the
 * app; after a one-time code was mailed (`method: "code"` or `"both"`), the
 * form to enter it, posted with the address and the CSRF token to the
 * provider's callback.
 * @module
 */
import type { RequestContext } from "../context.js"
import { codeError } from "./code-error.js"
import { csrfField } from "./form-fields.js"
import { html } from "./html.js"
import { renderDocument, type PageContext, type RenderedPage } from "./layout.js"

export interface CodeFormParams {
  /** Where the form posts: the provider's callback. */
  action: string
  csrfToken: string
  email?: string
  error?: string
}

export function renderVerifyRequestPage(
  ctx: RequestContext,
  page: PageContext,
  codeForm?: CodeFormParams,
): RenderedPage {
  const { t } = page
  const title = t.t("verifyRequest.title")
  if (!codeForm) {
    const content = () => html`
      <h1>${title}</h1>
      <p>${t.t("verifyRequest.message")}</p>
      <a class="button" href="${ctx.origin}">${t.t("verifyRequest.back", { host: ctx.request.url.host })}</a>`
    return renderDocument(page, title, content)
  }
  const { action, csrfToken, email, error } = codeForm
  const { alert, field } = codeError(t, error, "verify-code")
  const content = () => html`
    <h1>${title}</h1>
    <p>${t.t("verifyRequest.code")}</p>
    ${alert}
    <form action="${action}" method="POST">
      ${csrfField(csrfToken)}
      <label for="verify-email">${t.t("email.label")}</label>
      <input id="verify-email" type="email" name="email" autocomplete="email" required${email ? html` value="${email}"` : ""}>
      <label for="verify-code">${t.t("verifyRequest.codeLabel")}</label>
      <input id="verify-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 -]{8,12}" maxlength="12" required autofocus${field}>
      <button type="submit" data-pending="${t.t("signIn.pending")}">${t.t("verifyRequest.submit")}</button>
    </form>`
  return renderDocument(page, title, content)
}
