/**
 * The built-in sign-in page: one section per provider, in configuration
 * order, each rendered by the provider's flow; a flow's head markup (the
 * passkey script) once per page.
 * @module
 */
import type { RequestContext } from "../context.js"
import type { ProviderFlow, SignInPageParams } from "../flows/types.js"
import { html } from "./html.js"
import { renderDocument, type RenderedPage } from "./layout.js"
import { signInErrorMessages } from "./messages.js"

export type { SignInPageParams }

const isButtonOnly = (type: string) => type === "oauth" || type === "oidc"

export function renderSignInPage(
  ctx: RequestContext,
  params: Omit<SignInPageParams, "nonce">,
): RenderedPage {
  const { providers, theme, flows } = ctx.config
  // Own keys only: `?error=toString` must not find Object.prototype's.
  const message = params.error
    ? Object.hasOwn(signInErrorMessages, params.error)
      ? signInErrorMessages[params.error]
      : signInErrorMessages.default
    : undefined
  const heads = new Set<NonNullable<ProviderFlow["head"]>>()
  for (const provider of providers) {
    const head = flows.get(provider.id)!.head
    if (head) heads.add(head)
  }
  const content = (nonce: string) => {
    const sections = providers.map((provider, i) => {
      // A rule between a form with fields and its neighbours, as users expect.
      const separate =
        i > 0 && (!isButtonOnly(provider.type) || !isButtonOnly(providers[i - 1]!.type))
      const section = flows.get(provider.id)!.section(ctx, { ...params, nonce })
      return html`${separate ? html`<hr>` : ""}${section}`
    })
    return html`<h1>Sign in</h1>${message ? html`<div class="error" role="alert">${message}</div>` : ""}${sections}`
  }
  const head = (nonce: string) => html`${[...heads].map((h) => h(ctx, nonce))}`
  return renderDocument(theme, "Sign In", content, head)
}
