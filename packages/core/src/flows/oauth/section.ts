/**
 * The OAuth/OIDC provider's part of the built-in sign-in page: one button,
 * in the provider's colour (its text black or white, whichever reads better
 * on it), posting to `signin/<id>`.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { actionUrl } from "../../http/urls.js"
import { contrastingText, cssColor } from "../../pages/colors.js"
import { hiddenFields } from "../../pages/form-fields.js"
import { html, unsafeRaw, type SafeHtml } from "../../pages/html.js"
import type { ResolvedOAuthProvider, SignInPageParams } from "../types.js"

/** The button's colours as a rule in a nonce'd `<style>`: the CSP allows no style attributes. */
function colourRule(provider: ResolvedOAuthProvider, nonce: string): SafeHtml | "" {
  const style = provider.style ?? {}
  const brand = style.brandColor ?? style.bg
  if (!brand) return ""
  const background = cssColor(brand)
  const text = contrastingText(background)
  const rule = `[data-provider="${provider.id}"] button{--provider-bg:${background}${text ? `;--provider-text:${text}` : ""}}`
  return html`<style nonce="${nonce}">${unsafeRaw(rule)}</style>`
}

export function oauthSection(
  ctx: RequestContext,
  provider: ResolvedOAuthProvider,
  params: SignInPageParams,
): SafeHtml {
  const { t } = params
  const logo = provider.style?.logo
  return html`
    ${colourRule(provider, params.nonce)}
    <form class="provider" action="${actionUrl(ctx, "signin", provider.id)}" method="POST" data-provider="${provider.id}">
      ${hiddenFields(params)}
      <button type="submit" data-pending="${t.t("signIn.pending")}">
        ${logo ? html`<img class="provider-logo" src="${logo}" alt="">` : ""}
        <span data-label>${t.t("signIn.with", { provider: provider.name })}</span>
      </button>
    </form>`
}
