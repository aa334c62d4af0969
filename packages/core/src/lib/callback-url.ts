/**
 * Where to send the user after a flow: `callbackUrl` (or `redirectTo`) from the
 * body or query, else the callback-URL cookie set when the flow started, else
 * the app's origin. Always passed through the `redirect` callback, whose
 * default keeps it on the app's origin.
 * @module
 */
import type { RequestContext } from "../context.js"

export async function resolveCallbackUrl(ctx: RequestContext): Promise<string> {
  const { body, query, cookies } = ctx.request
  const candidate =
    body?.callbackUrl ??
    body?.redirectTo ??
    query.callbackUrl ??
    cookies[ctx.cookieOptions.callbackUrl.name]
  if (typeof candidate !== "string" || candidate === "") return ctx.origin
  return ctx.config.callbacks.redirect({ url: candidate, baseUrl: ctx.origin })
}

/** Remembers the callback URL across a round trip to a provider (or an e-mail). */
export function rememberCallbackUrl(ctx: RequestContext, callbackUrl: string): void {
  if (ctx.request.cookies[ctx.cookieOptions.callbackUrl.name] === callbackUrl) return
  ctx.cookies.push({ ...ctx.cookieOptions.callbackUrl, value: callbackUrl })
}
