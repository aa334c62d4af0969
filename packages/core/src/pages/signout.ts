/**
 * The sign-out page: a confirmation form (with a way back) for a signed-in
 * visitor; for anyone else, a note that nobody is signed in and the ways on.
 * @module
 */
import type { RequestContext } from "../context.js"
import { actionUrl } from "../http/urls.js"
import { hiddenFields } from "./form-fields.js"
import { html } from "./html.js"
import { renderDocument, type PageContext, type RenderedPage } from "./layout.js"

export interface SignOutPageParams {
  csrfToken: string
  callbackUrl: string
  /** Whether the request carries a session of someone. */
  signedIn: boolean
  /** The sign-in page, for a visitor who is not signed in. */
  signInUrl: string
}

export function renderSignOutPage(
  ctx: RequestContext,
  page: PageContext,
  params: SignOutPageParams,
): RenderedPage {
  const { t } = page
  const title = t.t("signOut.title")
  const content = params.signedIn
    ? () => html`
        <h1>${title}</h1>
        <p>${t.t("signOut.confirm")}</p>
        <form action="${actionUrl(ctx, "signout")}" method="POST">
          ${hiddenFields(params)}
          <button type="submit" data-pending="${t.t("signOut.pending")}">${t.t("signOut.submit")}</button>
        </form>
        <div class="links">
          <a href="${params.callbackUrl}">${t.t("signOut.cancel")}</a>
        </div>`
    : () => html`
        <h1>${title}</h1>
        <p>${t.t("signOut.signedOut")}</p>
        <a class="button" href="${params.callbackUrl}">${t.t("signOut.back")}</a>
        <div class="links">
          <a href="${params.signInUrl}">${t.t("signOut.signIn")}</a>
        </div>`
  return renderDocument(page, title, content)
}
