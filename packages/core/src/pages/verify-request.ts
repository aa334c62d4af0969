/**
 * The page shown after a sign-in link was mailed: check your e-mail, with a
 * way back to the app.
 * @module
 */
import type { RequestContext } from "../context.js"
import { html } from "./html.js"
import { renderDocument, type PageContext, type RenderedPage } from "./layout.js"

export function renderVerifyRequestPage(ctx: RequestContext, page: PageContext): RenderedPage {
  const { t } = page
  const title = t.t("verifyRequest.title")
  const content = () => html`
    <h1>${title}</h1>
    <p>${t.t("verifyRequest.message")}</p>
    <a class="button" href="${ctx.origin}">${t.t("verifyRequest.back", { host: ctx.request.url.host })}</a>`
  return renderDocument(page, title, content)
}
