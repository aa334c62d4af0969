/**
 * The e-mail provider's part of the built-in sign-in page: an address field
 * posted to `signin/<id>`. When a passkey provider offers conditional UI, the
 * same field also offers passkeys in the browser's autofill.
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
  const conditional = ctx.config.providers.some(
    (p) => p.type === "webauthn" && p.enableConditionalUI,
  )
  const id = fieldId("email", provider.id)
  return html`<form class="provider" action="${actionUrl(ctx, "signin", provider.id)}" method="POST">${hiddenFields(params)}<label for="${id}">Email</label><input id="${id}" type="email" name="email" placeholder="email@example.com" required autocomplete="${conditional ? "username webauthn" : "email"}"${params.email ? html` value="${params.email}"` : ""}><button type="submit">Sign in with ${provider.name}</button></form>`
}
