/**
 * Where the second-factor code is asked for. Its own module: the resolved
 * configuration's light two-factor flow (`flow.ts`) and the sign-in steps'
 * gate (`gate.ts`) both send browsers there.
 * @module
 */
import type { RequestContext } from "../context.js"
import { actionUrl } from "../http/urls.js"

/** Where the code is asked for: `pages.twoFactor`, or the built-in page. */
export function twoFactorPageUrl(ctx: RequestContext, error?: string): string {
  const custom = ctx.config.pages.twoFactor
  const url = new URL(custom ?? actionUrl(ctx, "two-factor"), ctx.origin)
  if (error) url.searchParams.set("error", error)
  return url.href
}
