/**
 * Where to send the user after a flow: `callbackUrl` (or `redirectTo`) from the
 * body or query, else the callback-URL cookie set when the flow started, else
 * the app's origin. Always passed through the `redirect` callback, whose
 * default keeps it on the app's origin.
 * @module
 */
import { defaultCallbacks } from "../config/callbacks.js"
import type { RequestContext } from "../context.js"

export async function resolveCallbackUrl(ctx: RequestContext): Promise<string> {
  const { body, query, cookies } = ctx.request
  const candidate =
    body?.callbackUrl ??
    body?.redirectTo ??
    query.callbackUrl ??
    cookies[ctx.cookieOptions.callbackUrl.name]
  if (typeof candidate !== "string" || candidate === "") return ctx.origin
  const { redirect } = ctx.config.callbacks
  // Auth.js refuses anything but a path or an http(s) URL before an app's `redirect` callback
  // runs, and callbacks written for it rely on that (`new URL(url)`). Such a value is ignored
  // here rather than failing the request. The default callback takes any string safely.
  if (redirect !== defaultCallbacks.redirect && !isPathOrHttpUrl(candidate)) return ctx.origin
  return redirect({ url: candidate, baseUrl: ctx.origin })
}

/** A path (`/...`) or an absolute http(s) URL: what Auth.js lets through to `redirect`. */
function isPathOrHttpUrl(value: string): boolean {
  try {
    const url = value.startsWith("/") ? new URL(value, "http://localhost") : new URL(value)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** Remembers the callback URL across a round trip to a provider (or an e-mail). */
export function rememberCallbackUrl(ctx: RequestContext, callbackUrl: string): void {
  if (ctx.request.cookies[ctx.cookieOptions.callbackUrl.name] === callbackUrl) return
  ctx.cookies.push({ ...ctx.cookieOptions.callbackUrl, value: callbackUrl })
}
