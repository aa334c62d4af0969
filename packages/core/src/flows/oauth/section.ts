/**
 * The OAuth/OIDC provider's part of the built-in sign-in page: one button,
 * in the provider's colour, posting to `signin/<id>`.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { actionUrl } from "../../http/urls.js"
import { hiddenFields } from "../../pages/form-fields.js"
import { html, type SafeHtml } from "../../pages/html.js"
import { cssColor } from "../../pages/layout.js"
import type { ResolvedOAuthProvider, SignInPageParams } from "../types.js"

export function oauthSection(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
  params: SignInPageParams,
): SafeHtml {
  const style = provider.style ?? {}
  const brand = style.brandColor ?? style.bg
  return html`<form class="provider" action="${actionUrl(ctx, "signin", provider.id)}" method="POST">${hiddenFields(params)}<button type="submit"${brand ? html` style="--provider-bg:${cssColor(brand)}"` : ""}>${style.logo ? html`<img class="provider-logo" src="${style.logo}" alt="">` : ""}<span>Sign in with ${provider.name}</span></button></form>`
}
