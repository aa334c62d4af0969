/**
 * `Auth()`: the whole pipeline, run once per request:
 *
 *   Request -> resolved config (validated once) -> trusted URL -> route (method,
 *   provider) -> parsed request -> the route's policies (CSRF) -> the action or
 *   its flow -> internal result + the context's cookies -> Response.
 *
 * Every failure ends here as a response the user can act on; nothing throws past
 * this point except, in raw mode, configuration errors and `AuthError`s (sign-in
 * and adapter failures alike), which the framework shows or handles. Failures a
 * client caused are logged at debug level, server faults at error level.
 * @module
 */
import type { AuthConfig } from "./config/auth-config.js"
import { processEnv } from "./config/env.js"
import { createLogger } from "./config/logger.js"
import { resolveConfig, type ResolvedConfig } from "./config/resolve.js"
import { createContext, type RequestContext } from "./context.js"
import {
  AuthError,
  ErrorPageLoop,
  MissingCSRF,
  RateLimited,
  UnknownAction,
  isClientError,
  publicErrorOf,
} from "./errors.js"
import { assertCsrf } from "./http/csrf.js"
import { effectiveUrl, RequestError, toInternalRequest } from "./http/request.js"
import { noStoreHeaders, toResponse, typedResult } from "./http/response.js"
import { actionUrl, appPageUrl } from "./http/urls.js"
import { lazy } from "./flows/lazy.js"
import {
  isAuthAction,
  matchRoute,
  routes,
  splitPath,
  type Endpoint,
  type RouteMatch,
} from "./routes.js"
import { adoptAuthjsSession, hasAuthjsSessionToAdopt } from "./session/authjs-cookies.js"
import { raw } from "./symbols.js"
import { asError } from "./lib/as-error.js"
import type { LoggerInstance, ResponseInternal } from "./types.js"

/** Auth.js's words for a broken configuration in a JSON answer (its error page says "is"). */
const configurationMessage =
  "There was a problem with the server configuration. Check the server logs for more information."

/**
 * Handles one request to the auth routes under `basePath` (default `/auth`): sign-in, callbacks,
 * sign-out, session, CSRF token, providers and the built-in pages. Never throws for a client's
 * mistake: bad input is a 4xx, a broken configuration a 500 naming nothing to the client.
 *
 * @param request The incoming request: any `Request`; a body over 64 KiB is refused (413).
 * @param config The configuration. Keep one object for the life of the app: it is validated once
 *   and cached.
 * @returns A `Response`, or with `raw` in the configuration the internal result for an integration.
 * @see [Auth.js: Auth()](https://authjs.dev/reference/core#auth)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export async function Auth(
  request: Request,
  config: AuthConfig & { raw: typeof raw },
): Promise<ResponseInternal>
export async function Auth(request: Request, config: Omit<AuthConfig, "raw">): Promise<Response>
export async function Auth(
  request: Request,
  config: AuthConfig,
): Promise<Response | ResponseInternal> {
  const isRaw = config?.raw === raw
  // Read only when it matters (a redirect, a raw-mode failure): a session check never needs it.
  const returnRedirectAsJson = () => request.headers.get("X-Auth-Return-Redirect") === "1"
  const finish = (result: ResponseInternal) =>
    isRaw
      ? typedResult(result)
      : toResponse(result, result.redirect ? returnRedirectAsJson() : false)

  const pending = resolveConfig(config)
  const resolution = pending instanceof Promise ? await pending : pending
  if (!resolution.ok) {
    // Logged once, when the configuration was resolved.
    if (isRaw) throw resolution.error
    return finish(await configurationErrorResult(request, config))
  }
  const resolved = resolution.config
  let match: RouteMatch | undefined
  let ctx: RequestContext | undefined
  try {
    const url = effectiveUrl(request, resolved)
    match = matchRoute(
      url.pathname,
      resolved.basePath,
      request.method.toUpperCase(),
      resolved.flows,
    )
    const internal = toInternalRequest(request, url, match)
    ctx = createContext(resolved, internal instanceof Promise ? await internal : internal, request)
    const result = withoutReferrer(ctx, await run(ctx, match))
    // The kind of answer, not its URL: an authorization URL or link may carry a token.
    if (resolved.debug) {
      resolved.logger.debug(
        `response: ${result.redirect !== undefined ? "redirect" : (result.status ?? 200)}`,
        { status: result.redirect !== undefined ? 302 : (result.status ?? 200) },
      )
    }
    // Nothing to merge (every session check that sets no cookie): the result as it is.
    if (!isRaw && ctx.cookies.length === 0) return finish(result)
    return finish({ ...result, cookies: [...ctx.cookies, ...(result.cookies ?? [])] })
  } catch (error) {
    if (error instanceof RequestError) {
      logFailure(resolved.logger, error.error, error.status < 500)
      // A server-side refusal on a page a browser shows: the error page, not JSON.
      if (error.status >= 500 && !answersJson(request, resolved.basePath)) {
        return finish(await configurationErrorResult(request, resolved.source))
      }
      // A refusal answers one request: no cache may keep it (back-channel logout requires it).
      return finish({
        status: error.status,
        headers: { "Cache-Control": "no-store", ...error.headers },
        body: { error: error.error.type, message: error.error.message },
      })
    }
    const failure = error instanceof Error ? error : new Error(String(error))
    logFailure(resolved.logger, failure, isClientError(failure))
    if (isRaw && error instanceof AuthError && !returnRedirectAsJson()) throw error
    if (!ctx || !match) {
      return finish({
        status: 400,
        body: { error: "InvalidRequest", message: "The request could not be read" },
      })
    }
    // A failed flow still clears what it meant to clear (used PKCE/state/challenge cookies),
    // but nothing it was about to set (a session) survives the failure.
    const clears = ctx.cookies.filter((cookie) => cookie.options.maxAge === 0)
    return finish({
      ...withoutReferrer(ctx, await errorResult(ctx, match, error)),
      cookies: clears,
    })
  }
}

/**
 * A callback's URL carries a credential (a mailed link's token or code, an OAuth code): no
 * answer at it, whether it used or refused the credential, lets the next page see a Referer.
 * A page that chose its own policy keeps it (the `confirmLink` page's form needs `same-origin`
 * to send its `Origin` for the CSRF check).
 */
function withoutReferrer(ctx: RequestContext, result: ResponseInternal): ResponseInternal {
  if (ctx.request.action !== "callback" || ctx.request.method !== "GET") return result
  const headers = new Headers(result.headers)
  if (headers.has("Referrer-Policy")) return result
  headers.set("Referrer-Policy", "no-referrer")
  return { ...result, headers }
}

/**
 * The route's policies, then its handler. Not `async`: a route with no policy
 * that applies to this request (every session check: no CSRF rule, no rate
 * limit, no Auth.js cookie to adopt) goes to its handler without an extra promise.
 */
function run(ctx: RequestContext, { route, providerId }: RouteMatch): Promise<ResponseInternal> {
  const { flow } = ctx
  if (ctx.config.debug) {
    const { action, method: verb } = ctx.request
    // Names only: never the query, body or cookies (they carry tokens and addresses).
    ctx.config.logger.debug(`request: ${verb} ${action}${providerId ? ` (${providerId})` : ""}`, {
      action,
      method: verb,
      providerId,
    })
  }
  if (providerId !== undefined && !flow) {
    throw new RequestError(new UnknownAction("Unknown provider"), 404)
  }
  const method = ctx.request.method
  if (route.methodsFromFlow && !flow!.callback.methods.includes(method)) {
    throw new RequestError(
      new UnknownAction(`This provider's callback does not answer ${method}`),
      405,
      { Allow: flow!.callback.methods.join(", ") },
    )
  }
  const endpoint = route[method]!
  const csrf = endpoint.csrf === true || (typeof endpoint.csrf === "function" && endpoint.csrf(ctx))
  const limited = ctx.config.rateLimits !== undefined && !!endpoint.rateLimit?.length
  const { recentSignIn } = endpoint
  const fresh = recentSignIn === true || (typeof recentSignIn === "function" && recentSignIn(ctx))
  if (!csrf && !limited && !fresh && !hasAuthjsSessionToAdopt(ctx)) {
    return Promise.resolve(endpoint.handler(ctx))
  }
  return guarded(ctx, endpoint, { csrf, limited, fresh })
}

/** The rate-limit policies, loaded with the first request a limit applies to. */
const rateLimitPolicies = lazy(() => import("./rate-limit/policies.js"))

/** The recent-sign-in policy, loaded with the first request it applies to. */
const recentSignInPolicy = lazy(() => import("./session/recent-sign-in.js"))

/**
 * {@link run} for a request with policies to apply: CSRF, then rate limits,
 * then the adoption, then the recent sign-in (of the session the action will
 * see, adopted or not).
 */
async function guarded(
  ctx: RequestContext,
  endpoint: Endpoint,
  { csrf, limited, fresh }: { csrf: boolean; limited: boolean; fresh: boolean },
): Promise<ResponseInternal> {
  if (csrf) await assertCsrf(ctx)
  // After the CSRF check: a forged request must not count against its victim.
  const ticket = limited
    ? await (await rateLimitPolicies()).enforceRateLimits(ctx, endpoint.rateLimit)
    : undefined
  const adoption = adoptAuthjsSession(ctx)
  if (adoption) await adoption
  const handle = fresh
    ? async () => {
        await (await recentSignInPolicy()).assertRecentSignIn(ctx)
        return endpoint.handler(ctx)
      }
    : () => endpoint.handler(ctx)
  if (!ticket) return handle()
  let result: ResponseInternal
  try {
    result = await handle()
  } catch (error) {
    // The failure is what the client hears about; a store that fails now is only logged.
    await ticket.settle("failed").catch((fault: unknown) => ctx.config.logger.error(asError(fault)))
    throw error
  }
  await ticket.settle(result)
  return result
}

/**
 * Client mistakes (a bad request, a wrong password, a used link) are the
 * client's business: debug level, no stack. Server faults go to `error`.
 */
function logFailure(logger: LoggerInstance, error: Error, client: boolean): void {
  if (!client) return logger.error(error)
  const type = error instanceof AuthError ? error.type : error.name
  logger.debug(`${type}: ${error.message}`, { type, error })
}

/**
 * Where a failed action sends the user: the sign-in or error page with a
 * documented `error` value, and its `code` when it has one.
 */
async function errorResult(
  ctx: RequestContext,
  match: RouteMatch,
  error: unknown,
): Promise<ResponseInternal> {
  const { config, request } = ctx
  const { page, value, code } = publicErrorOf(error)
  const retry =
    error instanceof RateLimited ? { "Retry-After": String(error.retryAfter) } : undefined
  if (match.route.answers === "json") {
    if (request.action === "session" && request.method === "POST")
      return { status: 400, body: null }
    const status =
      error instanceof MissingCSRF
        ? 403
        : error instanceof RateLimited
          ? 429
          : isClientError(error)
            ? 400
            : 500
    return {
      status,
      headers: { "Cache-Control": "no-store", ...retry },
      // A server fault names nothing: Auth.js's body, word for word (its client reads `message`).
      // A CSRF refusal also says what to send (`fetch` callers see this, not a page).
      body:
        status === 500
          ? { message: configurationMessage }
          : error instanceof MissingCSRF
            ? { error: value, message: error.message }
            : { error: value },
    }
  }
  if (request.action === "error") {
    // The error page itself failed: render the built-in one rather than loop.
    const { renderErrorPage, pageContextOf } = await builtInPages()
    return renderErrorPage(await pageContextOf(ctx), { home: `${ctx.origin}/` }, value)
  }
  const params: Record<string, string> = { error: value }
  if (code !== undefined) params.code = code
  // A flow may keep its own failures on its own page (a code form, the two-factor page).
  const own = ctx.flow?.failurePage?.(ctx, error, value)
  if (own) return { redirect: own, ...(retry ? { headers: retry } : {}) }
  const custom = page === "signIn" ? config.pages.signIn : config.pages.error
  const redirect = custom
    ? appPageUrl(ctx, custom, params)
    : actionUrl(ctx, page === "signIn" ? "signin" : "error", undefined, params)
  return { redirect, ...(retry ? { headers: retry } : {}) }
}

/** The error page and its context, loaded when one is shown (as the other pages: routes.ts). */
async function builtInPages() {
  const [{ renderErrorPage }, { pageContextOf, fallbackPageContext }] = await Promise.all([
    import("./pages/error.js"),
    import("./pages/page-context.js"),
  ])
  return { renderErrorPage, pageContextOf, fallbackPageContext }
}

/** True when the request is for a JSON route (by path alone: the request may not parse). */
function answersJson(request: Request, basePath: string | undefined): boolean {
  try {
    const base = (basePath ?? "/auth").replace(/\/+$/, "")
    const { pathname } = new URL(request.url)
    if (!pathname.startsWith(`${base}/`)) return false
    const { action = "" } = splitPath(pathname.slice(base.length + 1))
    return isAuthAction(action) && routes[action].answers === "json"
  } catch {
    return false
  }
}

/** The origin of `url`/`origin`/`AUTH_URL`, when one parses. */
function configuredOrigin(config: AuthConfig | undefined): string | undefined {
  const value = config?.url ?? config?.origin ?? processEnv()?.AUTH_URL
  try {
    return value ? new URL(value).origin : undefined
  } catch {
    return undefined
  }
}

/**
 * Whether the browser comes from the custom error page itself, sent to sign in
 * with that page as its way back (`callbackUrl`): the page asks for a session,
 * and redirecting there again would loop (Auth.js's `ErrorPageLoop`).
 */
function comesFromErrorPage(request: Request, errorPage: string): boolean {
  const back = new URL(request.url).searchParams.get("callbackUrl")
  if (!back) return false
  try {
    const base = new URL(request.url).origin
    return new URL(back, base).pathname === new URL(errorPage, base).pathname
  } catch {
    return false
  }
}

/**
 * The configuration is broken: 500 JSON for API actions; for pages, the custom
 * error page when there is one (unless that page sent the browser here: then
 * `ErrorPageLoop` is logged), otherwise 500 JSON to a fetch client's POST
 * (`X-Auth-Return-Redirect: 1`) and the built-in error page to a browser (in the
 * language `Accept-Language` asks for, with a link to the configured origin's
 * home page, or to `/` on whatever origin the browser is at).
 */
async function configurationErrorResult(
  request: Request,
  config: AuthConfig | undefined,
): Promise<ResponseInternal> {
  if (answersJson(request, config?.basePath)) {
    return { status: 500, body: { message: configurationMessage } }
  }
  const errorPage = config?.pages?.error
  const isPath =
    typeof errorPage === "string" && errorPage.startsWith("/") && !errorPage.startsWith("//")
  if (isPath && comesFromErrorPage(request, errorPage)) {
    createLogger(!!config?.debug, config?.logger).error(
      new ErrorPageLoop(`The error page ${errorPage} should not require authentication`),
    )
  } else if (isPath) {
    // An absolute Location, as Auth.js sends: on the configured origin when there is one. Without,
    // the request's own (the configuration is broken, nothing better is known); same path either way.
    const url = new URL(errorPage, configuredOrigin(config) ?? new URL(request.url).origin)
    url.searchParams.set("error", "Configuration")
    return { redirect: url.href, headers: noStoreHeaders }
  }
  // A fetch client (Auth.js's `signIn`/`signOut` POST with this header) reads the answer with
  // `res.json()`: Auth.js's JSON, not a page it cannot parse. A browser's own form gets the page.
  if (request.method === "POST" && request.headers.get("X-Auth-Return-Redirect") === "1") {
    return { status: 500, body: { message: configurationMessage } }
  }
  const home = `${configuredOrigin(config) ?? ""}/`
  const { renderErrorPage, fallbackPageContext } = await builtInPages()
  const page = renderErrorPage(await fallbackPageContext(request), { home }, "Configuration")
  return { ...page, status: 500 }
}

export type { LoggerInstance, ResolvedConfig }
