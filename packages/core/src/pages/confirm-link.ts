/**
 * The page a mailed link opens when its provider has `confirmLink`: "Sign in
 * as alice@example.com" and a button. Only the button's POST consumes the
 * link, so a mail scanner that fetches every link in a message uses nothing
 * up. The form carries the link's fields and the CSRF token.
 * @module
 */
import type { RequestContext } from "../context.js"
import { html } from "./html.js"
import { renderDocument, type RenderedPage } from "./layout.js"
import { pageText } from "./messages.js"

export interface ConfirmLinkParams {
  /** Where the form posts: the provider's callback. */
  action: string
  email: string
  csrfToken: string
  callbackUrl: string
  /** The link's proof: its token, or its code. */
  fields: { token: string } | { code: string }
}

export function renderConfirmLinkPage(
  ctx: RequestContext,
  params: ConfirmLinkParams,
): RenderedPage {
  const text = pageText.confirmLink
  const proof = Object.entries(params.fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )
  const body = html`<h1>${text.heading}</h1><form action="${params.action}" method="POST"><input type="hidden" name="csrfToken" value="${params.csrfToken}"><input type="hidden" name="callbackUrl" value="${params.callbackUrl}"><input type="hidden" name="email" value="${params.email}">${proof}<p>${text.prompt} <strong>${params.email}</strong></p><button type="submit">${text.submit}</button></form><p>${text.note}</p>`
  return renderDocument(ctx.config.theme, text.title, () => body)
}
