/**
 * Every URL Tessera hands out, built in one place and only on the request's
 * trusted origin (`ctx.origin`): action URLs (form actions, mailed links,
 * callback and redirect URIs) and the app's own pages.
 * @module
 */
import type { RequestContext } from "../context.js"

type UrlContext = Pick<RequestContext, "authUrl">

/**
 * `<origin><basePath>/<action>[/<providerId>][?query]`.
 *
 * @param action An action, or an action path such as `sessions/revoke`.
 * @param providerId Encoded as a path segment.
 * @param query Added as the query string.
 */
export function actionUrl(
  ctx: UrlContext,
  action: string,
  providerId?: string,
  query?: Record<string, string>,
): string {
  const path = providerId === undefined ? action : `${action}/${encodeURIComponent(providerId)}`
  const search = query ? `?${new URLSearchParams(query)}` : ""
  return `${ctx.authUrl}/${path}${search}`
}

/** The sign-in URL and callback URL of a provider, as the `providers` action lists them. */
export function providerUrls(ctx: UrlContext, providerId: string) {
  return {
    signinUrl: actionUrl(ctx, "signin", providerId),
    callbackUrl: actionUrl(ctx, "callback", providerId),
  }
}

/**
 * An app page (a custom page from `pages`, given as a path or a URL) on this
 * origin, with `params` set in its query (undefined ones left out).
 */
export function appPageUrl(
  ctx: Pick<RequestContext, "origin">,
  path: string,
  params: Record<string, string | undefined> = {},
): string {
  const url = new URL(path, ctx.origin)
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(key, value)
  }
  return url.href
}

/** Where the sign-in page is: the custom one from `pages.signIn`, or the built-in one. */
export function signInPageUrl(ctx: Pick<RequestContext, "origin" | "authUrl" | "config">): string {
  const custom = ctx.config.pages.signIn
  return custom ? appPageUrl(ctx, custom) : actionUrl(ctx, "signin")
}
