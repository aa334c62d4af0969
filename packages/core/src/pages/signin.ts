/**
 * The built-in sign-in page: the providers in configuration order, each
 * section rendered by the provider's flow, with an "or" between methods
 * (OAuth buttons next to each other form one method: a list of buttons). When
 * an e-mail provider and a passkey provider that asks only for an e-mail
 * address are both configured, they share one e-mail field: the e-mail form's
 * field (with passkey autofill) also serves the passkey button. A flow's head
 * markup (the passkey script) is included once per page.
 * @module
 */
import type { RequestContext } from "../context.js"
import type { ProviderFlow, ResolvedProvider, SignInPageParams } from "../flows/types.js"
import { html, type SafeHtml } from "./html.js"
import { renderDocument, type PageContext, type RenderedPage } from "./layout.js"
import { signInErrorKey } from "./messages.js"

export type { SignInPageParams }

const isButtonOnly = (provider: ResolvedProvider) =>
  provider.type === "oauth" || provider.type === "oidc"

/** The e-mail provider and the passkey provider that share its field, if both are there. */
function sharedEmailField(providers: readonly ResolvedProvider[]) {
  const email = providers.find((p) => p.type === "email")
  const passkey = providers.find(
    (p) =>
      p.type === "webauthn" &&
      Object.keys(p.formFields).length === 1 &&
      Object.hasOwn(p.formFields, "email"),
  )
  return email && passkey ? { email, passkey } : undefined
}

/** The page's methods: runs of OAuth buttons, the shared e-mail field's pair, single forms. */
function methodsOf(providers: readonly ResolvedProvider[]): ResolvedProvider[][] {
  const shared = sharedEmailField(providers)
  const methods: ResolvedProvider[][] = []
  let sharedPlaced = false
  for (const provider of providers) {
    if (shared && (provider === shared.email || provider === shared.passkey)) {
      // Where the first of the two is configured; the e-mail form first, its field on top.
      if (!sharedPlaced) methods.push([shared.email, shared.passkey])
      sharedPlaced = true
      continue
    }
    const last = methods.at(-1)
    if (isButtonOnly(provider) && last?.every(isButtonOnly)) last.push(provider)
    else methods.push([provider])
  }
  return methods
}

export function renderSignInPage(
  ctx: RequestContext,
  page: PageContext,
  params: Omit<SignInPageParams, "nonce" | "t" | "emailForm">,
): RenderedPage {
  const { providers, flows } = ctx.config
  const { t } = page
  const shared = sharedEmailField(providers)
  const emailForm = shared ? `signin-${shared.email.id}` : undefined
  const heads = new Set<NonNullable<ProviderFlow["head"]>>()
  for (const provider of providers) {
    const head = flows.get(provider.id)!.head
    if (head) heads.add(head)
  }
  const divider = html`<p class="divider">${t.t("signIn.or")}</p>`
  const content = (nonce: string) => {
    const section = (provider: ResolvedProvider): SafeHtml =>
      flows.get(provider.id)!.section(ctx, {
        ...params,
        t,
        nonce,
        ...(shared && (provider === shared.email || provider === shared.passkey)
          ? { emailForm }
          : {}),
      })
    // Lists of elements, so that each comes out on a line of its own.
    const methods = methodsOf(providers).map((method) =>
      method.flatMap((provider, i) => [
        i > 0 && !isButtonOnly(provider) ? divider : "",
        section(provider),
      ]),
    )
    const error = params.error
      ? html`<div class="error" role="alert">${t.t(signInErrorKey(params.error, params.code))}</div>`
      : ""
    return html`
      <h1>${t.t("signIn.title")}</h1>
      ${error}
      ${methods.flatMap((method, i) => [i > 0 ? divider : "", ...method])}`
  }
  const head = (nonce: string) => html`${[...heads].map((h) => h(ctx, nonce))}`
  return renderDocument(page, t.t("signIn.title"), content, head)
}
