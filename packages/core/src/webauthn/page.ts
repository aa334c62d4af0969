/**
 * The passkey part of the built-in sign-in page.
 * @module
 */
import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import { html, type SafeHtml } from "../pages/html.js"
import type { SignInPageParams } from "../pages/signin.js"

export function webauthnSection(ctx: RequestContext, provider: InternalProvider<"webauthn">, _params: SignInPageParams): SafeHtml {
  return html`<div class="provider"><button type="button" data-webauthn-provider="${provider.id}" data-auth-url="${ctx.authUrl}">Sign in with ${provider.name}</button></div>`
}

export function webauthnHead(_ctx: RequestContext): SafeHtml | string {
  return ""
}
