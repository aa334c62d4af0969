/**
 * The page a mailed link opens when its provider has `confirmLink`: "Sign in
 * as alice@example.com" and a button. Only the button's POST consumes the
 * link, so a mail scanner that fetches every link in a message uses nothing
 * up. The form carries the link's fields and the CSRF token.
 * @module
 */
import type { RequestContext } from "../context.js"
import { hiddenField, hiddenFields } from "./form-fields.js"
import { html, type SafeHtml } from "./html.js"
import { renderDocument, type PageContext, type RenderedPage } from "./layout.js"

export interface ConfirmLinkParams {
  /** Where the form posts: the provider's callback. */
  action: string
  email: string
  csrfToken: string
  callbackUrl: string
  /** The link's proof: its token, or its code. */
  fields: { token: string } | { code: string }
}

/**
 * `template` with `{email}` replaced by the address (the string decides where it goes), as
 * one run of text: "Sign in as alice@example.com", whole, as the user reads it, with no
 * markup between the words and the address. Escaped by `html` like any value.
 */
function withAddress(template: string, email: string): SafeHtml {
  const parts = template.split("{email}")
  // split/join, not replaceAll: an address may hold `$&`, which replaceAll would expand.
  return html`${parts.length > 1 ? parts.join(email) : `${template} ${email}`}`
}

export function renderConfirmLinkPage(
  ctx: RequestContext,
  page: PageContext,
  params: ConfirmLinkParams,
): RenderedPage {
  const { t } = page
  const title = t.t("confirmLink.title")
  const proof = Object.entries(params.fields).map(([name, value]) => hiddenField(name, value))
  const content = () => html`
    <h1>${title}</h1>
    <form action="${params.action}" method="POST">
      ${hiddenFields(params)}
      ${hiddenField("email", params.email)}
      ${proof}
      <p>${withAddress(t.t("confirmLink.prompt"), params.email)}</p>
      <button type="submit" data-pending="${t.t("signIn.pending")}">${t.t("confirmLink.submit")}</button>
    </form>
    <p>${t.t("confirmLink.note")}</p>`
  return renderDocument(page, title, content)
}
