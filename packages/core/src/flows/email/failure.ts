/**
 * Where a failed e-mail callback sends the user: a mistyped or expired code
 * goes back to the code form with the `error` value. Apart from the callback's
 * steps (`callback.ts`, loaded on the first sign-in) because the handler asks
 * for it on any failure, and resolving the flow must not load the steps.
 * @module
 */
import type { RequestContext } from "../../context.js"
import { actionUrl, appPageUrl } from "../../http/urls.js"
import type { ResolvedEmailProvider } from "../types.js"

/** An address as a link or form may carry it: no control characters, at most 320 characters. */
export const IDENTIFIER = /^[^\u0000-\u001f\u007f-\u009f\u2028\u2029]{1,320}$/

/** The fields of a code attempt: the form's body on POST, the link's query on GET. */
export function codeFields(ctx: RequestContext): Record<string, unknown> {
  return ctx.request.method === "POST" ? (ctx.request.body ?? {}) : ctx.request.query
}

/**
 * A code that did not work goes back to the code form (the verify-request
 * page, or the app's own) with the `error` value, so the user can try again.
 */
export function emailFailurePage(
  ctx: RequestContext,
  provider: ResolvedEmailProvider,
  _error: unknown,
  value: string,
): string | undefined {
  const fields = codeFields(ctx)
  if (ctx.request.action !== "callback" || fields.code === undefined) return undefined
  if (provider.method === "link") return undefined
  const email =
    typeof fields.email === "string" && IDENTIFIER.test(fields.email) ? fields.email : undefined
  const params = { provider: provider.id, type: provider.type, email, error: value }
  const custom = ctx.config.pages.verifyRequest
  return custom
    ? appPageUrl(ctx, custom, params)
    : appPageUrl(ctx, actionUrl(ctx, "verify-request"), params)
}
