/**
 * GET actions that render (or redirect to) a page: signin, signout, error, verify-request.
 * A custom page configured in `pages` replaces the built-in one.
 * @module
 */
import type { RequestContext } from "../context.js"
import { ensureCsrfToken } from "../http/csrf.js"
import { resolveCallbackUrl, rememberCallbackUrl } from "../lib/callback-url.js"
import { renderErrorPage } from "../pages/error.js"
import { renderSignInPage } from "../pages/signin.js"
import { renderSignOutPage } from "../pages/signout.js"
import { renderVerifyRequestPage } from "../pages/verify-request.js"
import type { ResponseInternal } from "../types.js"

function customPage(
  ctx: RequestContext,
  path: string,
  params: Record<string, string | undefined>,
): ResponseInternal {
  const url = new URL(path, ctx.origin)
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(key, value)
  return { redirect: url.href, cookies: ctx.cookies }
}

export async function signInPage(ctx: RequestContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  const { error, code } = ctx.request.query
  if (ctx.config.pages.signIn)
    return customPage(ctx, ctx.config.pages.signIn, { callbackUrl, error, code })
  rememberCallbackUrl(ctx, callbackUrl)
  const csrfToken = await ensureCsrfToken(ctx)
  return {
    body: renderSignInPage(ctx, { csrfToken, callbackUrl, error, email: ctx.request.query.email }),
    cookies: ctx.cookies,
  }
}

export async function signOutPage(ctx: RequestContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  if (ctx.config.pages.signOut) return customPage(ctx, ctx.config.pages.signOut, { callbackUrl })
  const csrfToken = await ensureCsrfToken(ctx)
  return { body: renderSignOutPage(ctx, { csrfToken, callbackUrl }), cookies: ctx.cookies }
}

export async function errorPage(ctx: RequestContext): Promise<ResponseInternal> {
  const { error } = ctx.request.query
  if (ctx.config.pages.error) return customPage(ctx, ctx.config.pages.error, { error })
  const signInUrl = ctx.config.pages.signIn
    ? new URL(ctx.config.pages.signIn, ctx.origin).href
    : `${ctx.authUrl}/signin`
  const page = renderErrorPage(ctx.config.theme, signInUrl, error)
  return { status: page.status, body: page.body, cookies: ctx.cookies }
}

export async function verifyRequestPage(ctx: RequestContext): Promise<ResponseInternal> {
  if (ctx.config.pages.verifyRequest)
    return customPage(ctx, ctx.config.pages.verifyRequest, {
      provider: ctx.request.query.provider,
      type: ctx.request.query.type,
    })
  return { body: renderVerifyRequestPage(ctx), cookies: ctx.cookies }
}
