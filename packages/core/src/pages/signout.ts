import type { RequestContext } from "../context.js"
import { html } from "./html.js"
import { renderDocument, type RenderedPage } from "./layout.js"

export function renderSignOutPage(
  ctx: RequestContext,
  params: { csrfToken: string; callbackUrl: string },
): RenderedPage {
  const body = html`<h1>Sign out</h1><p>Are you sure you want to sign out?</p><form action="${ctx.authUrl}/signout" method="POST"><input type="hidden" name="csrfToken" value="${params.csrfToken}"><input type="hidden" name="callbackUrl" value="${params.callbackUrl}"><button type="submit">Sign out</button></form>`
  return renderDocument(ctx.config.theme, "Sign Out", () => body)
}
