/**
 * The credentials provider's part of the built-in sign-in page: its fields,
 * posted to `callback/<id>`. The button shows a pending state while the check
 * runs (a password hash takes a while).
 * @module
 */
import type { RequestContext } from "../../context.js"
import { actionUrl } from "../../http/urls.js"
import { fieldId, formField, hiddenFields } from "../../pages/form-fields.js"
import { html, type SafeHtml } from "../../pages/html.js"
import type { CredentialInput } from "../../providers/credentials.js"
import type { ResolvedCredentialsProvider, SignInPageParams } from "../types.js"

export function credentialsSection(
  ctx: RequestContext,
  provider: ResolvedCredentialsProvider,
  params: SignInPageParams,
): SafeHtml {
  const { t } = params
  const fields = Object.entries(provider.credentials ?? {}).map(([name, field]) =>
    formField(name, field as CredentialInput, fieldId(name, provider.id)),
  )
  return html`
    <form class="provider" action="${actionUrl(ctx, "callback", provider.id)}" method="POST">
      ${hiddenFields(params)}
      ${fields}
      <button type="submit" data-pending="${t.t("signIn.pending")}">${t.t("signIn.with", { provider: provider.name })}</button>
    </form>`
}
