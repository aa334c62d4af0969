/**
 * GET actions that render (or redirect to) a page: signin, signout, error,
 * verify-request (with the code form of providers that mail codes). A custom
 * page configured in `pages` replaces the built-in one.
 * @module
 */
import type { RequestContext } from "../context.js"
import { ensureCsrfToken } from "../http/csrf.js"
import { actionUrl, appPageUrl, signInPageUrl } from "../http/urls.js"
import { resolveCallbackUrl, rememberCallbackUrl } from "../lib/callback-url.js"
import { renderErrorPage } from "../pages/error.js"
import { pageContextOf } from "../pages/page-context.js"
import { renderSignInPage } from "../pages/signin.js"
import { renderSignOutPage } from "../pages/signout.js"
import { renderVerifyRequestPage } from "../pages/verify-request.js"
import { sessionStrategy } from "../session/index.js"
import type { ResponseInternal } from "../types.js"

export async function signInPage(ctx: RequestContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  const { error, code, email } = ctx.request.query
  // Remembered for a custom page too: its own form may post no callbackUrl (as Auth.js).
  rememberCallbackUrl(ctx, callbackUrl)
  const custom = ctx.config.pages.signIn
  if (custom) return { redirect: appPageUrl(ctx, custom, { callbackUrl, error, code }) }
  const csrfToken = await ensureCsrfToken(ctx)
  const page = await pageContextOf(ctx)
  return renderSignInPage(ctx, page, { csrfToken, callbackUrl, error, code, email })
}

/** Whether someone is signed in; when the session cannot be read, assume so (the form is harmless). */
async function isSignedIn(ctx: RequestContext): Promise<boolean> {
  try {
    return (await sessionStrategy(ctx).currentUserId(ctx)) !== null
  } catch {
    return true
  }
}

export async function signOutPage(ctx: RequestContext): Promise<ResponseInternal> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  const custom = ctx.config.pages.signOut
  if (custom) return { redirect: appPageUrl(ctx, custom, { callbackUrl }) }
  const csrfToken = await ensureCsrfToken(ctx)
  const signedIn = await isSignedIn(ctx)
  const signInUrl = appPageUrl(ctx, signInPageUrl(ctx), { callbackUrl })
  const page = await pageContextOf(ctx)
  return renderSignOutPage(ctx, page, { csrfToken, callbackUrl, signedIn, signInUrl })
}

export async function errorPage(ctx: RequestContext): Promise<ResponseInternal> {
  const { error } = ctx.request.query
  const custom = ctx.config.pages.error
  if (custom) return { redirect: appPageUrl(ctx, custom, { error }) }
  const page = await pageContextOf(ctx)
  return renderErrorPage(page, { signIn: signInPageUrl(ctx), home: `${ctx.origin}/` }, error)
}

export async function verifyRequestPage(ctx: RequestContext): Promise<ResponseInternal> {
  const { provider: providerId, type, email, error } = ctx.request.query
  const custom = ctx.config.pages.verifyRequest
  if (custom) {
    return { redirect: appPageUrl(ctx, custom, { provider: providerId, type, email, error }) }
  }
  const page = await pageContextOf(ctx)
  // A provider that mails codes gets the form to enter one.
  const provider = providerId ? ctx.config.flows.get(providerId)?.provider : undefined
  if (provider?.type !== "email" || provider.method === "link")
    return renderVerifyRequestPage(ctx, page)
  const csrfToken = await ensureCsrfToken(ctx)
  return renderVerifyRequestPage(ctx, page, {
    action: actionUrl(ctx, "callback", provider.id),
    csrfToken,
    email,
    error,
  })
}
