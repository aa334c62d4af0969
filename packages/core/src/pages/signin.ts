/**
 * The built-in sign-in page: one section per provider, in configuration
 * order, each rendered by the provider's flow; a flow's head markup (the
 * passkey script) once per page.
 * @module
 */
import type { RequestContext } from "../context.js"
import type { SignInPageParams } from "../flows/types.js"
import { html, type SafeHtml } from "./html.js"
import { renderDocument } from "./layout.js"
import { signInErrorMessages } from "./messages.js"

export type { SignInPageParams }

const isButtonOnly = (type: string) => type === "oauth" || type === "oidc"

export function renderSignInPage(ctx: RequestContext, params: SignInPageParams): string {
  const { providers, theme, flows } = ctx.config
  // Own keys only: `?error=toString` must not find Object.prototype's.
  const message = params.error
    ? Object.hasOwn(signInErrorMessages, params.error)
      ? signInErrorMessages[params.error]
      : signInErrorMessages.default
    : undefined
  const heads = new Set<(ctx: RequestContext) => SafeHtml>()
  const sections = providers.map((provider, i) => {
    const flow = flows.get(provider.id)!
    if (flow.head) heads.add(flow.head)
    // A rule between a form with fields and its neighbours, as users expect.
    const separate =
      i > 0 && (!isButtonOnly(provider.type) || !isButtonOnly(providers[i - 1]!.type))
    return html`${separate ? html`<hr>` : ""}${flow.section(ctx, params)}`
  })
  const body = html`<h1>Sign in</h1>${message ? html`<div class="error" role="alert">${message}</div>` : ""}${sections}`
  return renderDocument(theme, "Sign In", body, html`${[...heads].map((head) => head(ctx))}`)
}
