/**
 * The e-mail provider's part of the built-in sign-in page: an address field
 * posted to `signin/<id>`. When a passkey provider offers conditional UI, the
 * same field also offers passkeys in the browser's autofill; when the page
 * shares the field with a passkey button (`emailForm`), the form carries that
 * id for the button to join.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { actionUrl } from "../../http/urls.js"
import { fieldId, hiddenFields } from "../../pages/form-fields.js"
import { html, type SafeHtml } from "../../pages/html.js"
import type { ResolvedEmailProvider, SignInPageParams } from "../types.js"

export function emailSection(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  params: SignInPageParams,
): SafeHtml {
  const { t } = params
  const conditional = ctx.config.providers.some(
    (p) => p.type === "webauthn" && p.enableConditionalUI,
  )
  const id = fieldId("email", provider.id)
  return html`
    <form class="provider"${params.emailForm ? html` id="${params.emailForm}"` : ""} action="${actionUrl(ctx, "signin", provider.id)}" method="POST">
      ${hiddenFields(params)}
      <label for="${id}">${t.t("email.label")}</label>
      <input id="${id}" type="email" name="email" placeholder="${t.t("email.placeholder")}" required autocomplete="${conditional ? "username webauthn" : "email"}"${params.email ? html` value="${params.email}"` : ""}>
      <button type="submit" data-pending="${t.t("email.pending")}">${t.t("email.submit")}</button>
    </form>`
}
