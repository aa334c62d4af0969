/**
 * The OAuth/OIDC provider's part of the built-in sign-in page: one button,
 * in the provider's colour, posting to `signin/<id>`.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { actionUrl } from "../../http/urls.js"
import { hiddenFields } from "../../pages/form-fields.js"
import { html, unsafeRaw, type SafeHtml } from "../../pages/html.js"
import { cssColor } from "../../pages/layout.js"
import type { ResolvedOAuthProvider, SignInPageParams } from "../types.js"

export function oauthSection(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
  params: SignInPageParams,
): SafeHtml {
  const style = provider.style ?? {}
  const brand = style.brandColor ?? style.bg
  // The button's colour as a rule in a nonce'd <style>: the CSP allows no style attributes.
  const rule = brand
    ? html`<style nonce="${params.nonce}">${unsafeRaw(`[data-provider="${provider.id}"] button{--provider-bg:${cssColor(brand)}}`)}</style>`
    : ""
  return html`${rule}<form class="provider" action="${actionUrl(ctx, "signin", provider.id)}" method="POST" data-provider="${provider.id}">${hiddenFields(params)}<button type="submit">${style.logo ? html`<img class="provider-logo" src="${style.logo}" alt="">` : ""}<span>Sign in with ${provider.name}</span></button></form>`
}
