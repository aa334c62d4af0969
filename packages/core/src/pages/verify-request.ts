import type { RequestContext } from "../context.js"
import { html } from "./html.js"
import { renderDocument, type RenderedPage } from "./layout.js"

export function renderVerifyRequestPage(ctx: RequestContext): RenderedPage {
  const body = html`<h1>Check your email</h1><p>A sign in link has been sent to your email address.</p><a class="button" href="${ctx.origin}">${ctx.request.url.host}</a>`
  return renderDocument(ctx.config.theme, "Verify Request", () => body)
}
