/**
 * The `signIn` and `signOut` form actions. Each turns the submitted form into
 * the POST core expects, runs `Auth()` in raw mode, copies the cookies it sets
 * onto `event.cookies` and redirects (303) where core says.
 *
 * A failed sign-in is not turned into a redirect: the error (for example a
 * `CredentialsSignin` with its `code`, a `RateLimited`, an
 * `InvalidTwoFactorCode`) is thrown to the caller, so the app's own action can
 * answer with `fail(...)` and keep the form on screen.
 *
 * Users with a second factor: a first factor redirects to the two-factor step
 * (`pages.twoFactor`, or core's page); its form posts `providerId=two-factor`
 * and `code` to the same `signIn` action, which finishes the sign-in.
 * @module
 */
import { error, redirect, type RequestEvent } from "@sveltejs/kit"
import { Auth, type AuthConfig } from "@tessera/core"
import type { ResponseInternal } from "@tessera/core/types"
import { withEventAddress } from "./address.js"
import { actionConfig, basePathOf, findProvider } from "./config.js"
import { applyCookies } from "./cookies.js"
import { withoutForwardedHeaders } from "./forwarded.js"
import type { SignInOptions, SignOutOptions } from "./types.js"

/** The second step of a sign-in, for users with a second factor: `signIn("two-factor", { code })`. */
export const TWO_FACTOR_ID = "two-factor"

/**
 * Form fields with this prefix become authorization parameters of OAuth/OIDC providers.
 *
 * @see [Auth.js: @auth/sveltekit](https://authjs.dev/reference/sveltekit) (`signIn`, authorization parameters)
 */
export const AUTHORIZATION_PARAMS_PREFIX = "authorizationParams-"

/**
 * What an action returns when asked not to redirect (`redirect=false`).
 *
 * @see [Auth.js: @auth/sveltekit](https://authjs.dev/reference/sveltekit)
 */
export interface ActionResult {
  url: string
}

/** The `signIn` form action: fields `providerId`, `redirectTo`, `authorizationParams-<name>`, and the provider's own fields. */
export async function signInWithForm(
  event: RequestEvent,
  config: AuthConfig,
): Promise<ActionResult> {
  const { providerId, ...rest } = await readForm(event.request)
  const options: Record<string, string> = {}
  const authorizationParams: Record<string, string> = {}
  for (const [key, value] of Object.entries(rest)) {
    if (key.startsWith(AUTHORIZATION_PARAMS_PREFIX))
      authorizationParams[key.slice(AUTHORIZATION_PARAMS_PREFIX.length)] = value
    else options[key] = value
  }
  return signIn(event, config, providerId || undefined, options, authorizationParams)
}

/** The `signOut` form action: fields `redirectTo` and `scope` (`all`, `others`). */
export async function signOutWithForm(
  event: RequestEvent,
  config: AuthConfig,
): Promise<ActionResult> {
  const { redirectTo, callbackUrl, redirect, scope } = await readForm(event.request)
  return signOut(event, config, {
    redirectTo,
    callbackUrl,
    redirect: redirect as SignOutOptions["redirect"],
    // Checked by core: anything but "all" or "others" is a 400.
    scope: scope as SignOutOptions["scope"],
  })
}

/**
 * Signs in with `providerId` from server code. Redirects (throws SvelteKit's
 * redirect) unless `options.redirect` is false, in which case it returns the URL.
 * Without a provider, or with an unknown one, the destination is the sign-in page.
 */
export async function signIn(
  event: RequestEvent,
  config: AuthConfig,
  providerId: string | undefined,
  options: SignInOptions = {},
  authorizationParams: Record<string, string> = {},
): Promise<ActionResult> {
  const {
    redirect: redirectOption,
    redirectTo,
    callbackUrl: legacyCallbackUrl,
    ...fields
  } = options
  const shouldRedirect = redirectOption !== false && redirectOption !== "false"
  const callbackUrl = callbackUrlOf(event, redirectTo ?? legacyCallbackUrl)
  // The second step of a sign-in (`code`): not a configured provider, but core's pseudo-provider.
  const provider =
    providerId === TWO_FACTOR_ID
      ? { id: TWO_FACTOR_ID, type: "two-factor" as const }
      : providerId
        ? findProvider(config, providerId)
        : undefined
  if (!provider) return finish(signInPageUrl(event, config, callbackUrl), shouldRedirect)

  // Credentials and codes are checked by the callback action; every other type starts at signin.
  const action =
    provider.type === "credentials" || provider.type === "two-factor" ? "callback" : "signin"
  const url = new URL(
    `${basePathOf(config)}/${action}/${encodeURIComponent(provider.id)}`,
    event.url.origin,
  )
  for (const [key, value] of Object.entries(authorizationParams)) url.searchParams.set(key, value)
  const body: Record<string, string> = {}
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined) body[key] = String(value)
  body.callbackUrl = callbackUrl

  const result = await Auth(internalRequest(event, url, body), actionConfig(config))
  applyCookies(event.cookies, result.cookies)
  return finish(
    destination(result, () => signInPageUrl(event, config, callbackUrl)),
    shouldRedirect,
  )
}

/** Signs out from server code: ends the session and redirects (or returns `{ url }` with `redirect: false`). */
export async function signOut(
  event: RequestEvent,
  config: AuthConfig,
  options: SignOutOptions = {},
): Promise<ActionResult> {
  const shouldRedirect = options.redirect !== false && options.redirect !== "false"
  const callbackUrl = callbackUrlOf(event, options.redirectTo ?? options.callbackUrl)
  const url = new URL(`${basePathOf(config)}/signout`, event.url.origin)
  const fields: Record<string, string> = { callbackUrl }
  if (options.scope) fields.scope = options.scope
  const result = await Auth(internalRequest(event, url, fields), actionConfig(config))
  applyCookies(event.cookies, result.cookies)
  return finish(
    destination(result, () => callbackUrl),
    shouldRedirect,
  )
}

/** The submitted form's text fields. */
async function readForm(request: Request): Promise<Record<string, string>> {
  if (request.bodyUsed)
    error(400, "The form was already read: call signIn/signOut before reading request.formData()")
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    error(400, "Expected a form submission")
  }
  const fields: Record<string, string> = {}
  for (const [key, value] of form) if (typeof value === "string") fields[key] = value
  return fields
}

/**
 * Where to go afterwards: the explicit value, else a `redirectTo` (or
 * `callbackUrl`) query parameter of the action's URL or of the page the form was
 * on (`/signin?redirectTo=/dashboard`), else that page itself, else `/`.
 * Core passes it through the `redirect` callback, which keeps it on this origin.
 */
function callbackUrlOf(event: RequestEvent, explicit: string | undefined): string {
  if (explicit) return explicit
  const fromQuery = (url: URL) =>
    url.searchParams.get("redirectTo") || url.searchParams.get("callbackUrl")
  const own = fromQuery(event.url)
  if (own) return own
  const referer = event.request.headers.get("referer")
  if (!referer) return "/"
  let page: URL
  try {
    page = new URL(referer, event.url)
  } catch {
    return "/"
  }
  return (page.origin === event.url.origin && fromQuery(page)) || referer
}

function signInPageUrl(event: RequestEvent, config: AuthConfig, callbackUrl: string): string {
  const url = new URL(config.pages?.signIn ?? `${basePathOf(config)}/signin`, event.url.origin)
  url.searchParams.set("callbackUrl", callbackUrl)
  return url.origin === event.url.origin ? `${url.pathname}${url.search}` : url.href
}

/**
 * The POST core would have received from a browser, rebuilt from the action's
 * request: same headers (cookies, forwarded host), a new form body.
 *
 * Core runs without its CSRF token here: SvelteKit's origin check guards form
 * actions. An app may turn that check off; a submission the browser itself
 * calls cross-site (`Sec-Fetch-Site`), or whose `Origin` is not the app's, is
 * refused anyway, or another page could sign the visitor in to its own account
 * (login CSRF) or out.
 */
function internalRequest(event: RequestEvent, url: URL, body: Record<string, string>): Request {
  if (isCrossSite(event)) error(403, "Cross-site form submissions cannot sign in or out")
  const headers = new Headers(withoutForwardedHeaders(event.request.headers))
  for (const name of ["content-length", "content-encoding", "transfer-encoding", "content-type"])
    headers.delete(name)
  // Asking for the redirect as JSON would turn a failed sign-in into a redirect; here it must throw.
  headers.delete("x-auth-return-redirect")
  headers.set("content-type", "application/x-www-form-urlencoded")
  return withEventAddress(
    new Request(url, { method: "POST", headers, body: new URLSearchParams(body) }),
    event,
  )
}

/**
 * A form post from a page that is not the app's. Browsers since 2023 mark one from
 * another site in `Sec-Fetch-Site`; every browser sends `Origin` with a POST, and
 * an `Origin` other than the app's own (or `null`) is another page even when the
 * browser calls it `same-site` (another port on the same host, a sibling
 * subdomain): core's own routes refuse that post token or not, and these actions
 * have no token. A request with neither header (server code, a test) is not a
 * browser's post from another page.
 */
function isCrossSite(event: RequestEvent): boolean {
  if (event.request.headers.get("sec-fetch-site") === "cross-site") return true
  const origin = event.request.headers.get("origin")
  return origin !== null && origin !== event.url.origin
}

/** The redirect core asked for; a refused request becomes an HTTP error; anything else goes to `fallback`. */
function destination(result: ResponseInternal, fallback: () => string): string {
  if (result.redirect) return result.redirect
  const status = result.status ?? 200
  if (status >= 400) {
    const body = result.body as { message?: unknown; error?: unknown } | null | undefined
    const message =
      typeof body?.message === "string"
        ? body.message
        : typeof body?.error === "string"
          ? body.error
          : "Sign-in failed"
    error(status, message)
  }
  return fallback()
}

function finish(url: string, shouldRedirect: boolean): ActionResult {
  if (shouldRedirect) redirect(303, url)
  return { url }
}
