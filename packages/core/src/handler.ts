/**
 * `Auth()`: Request -> parse -> resolved config -> action -> internal result -> Response.
 * Every failure ends here as a response the user can act on; nothing throws past
 * this point except, in raw mode, configuration errors and `AuthError`s (sign-in
 * and adapter failures alike), which the framework shows or handles.
 * @module
 */
import { route } from "./actions/index.js"
import type { AuthConfig } from "./config/auth-config.js"
import { resolveConfig, type ResolvedConfig } from "./config/resolve.js"
import { createContext, type RequestContext } from "./context.js"
import {
  AuthError,
  CredentialsSignin,
  MissingCSRF,
  isClientError,
  publicErrorOf,
} from "./errors.js"
import { parseActionPath, RequestError, toInternalRequest } from "./http/request.js"
import { toResponse } from "./http/response.js"
import { renderErrorPage } from "./pages/error.js"
import { raw } from "./symbols.js"
import type { AuthAction, LoggerInstance, RequestInternal, ResponseInternal } from "./types.js"

/** Actions that answer JSON to scripts; the others end on a page. */
const apiActions = new Set<AuthAction>(["csrf", "providers", "session", "webauthn-options"])

const configurationMessage =
  "There is a problem with the server configuration. Check the server logs for more information."

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
  const returnRedirectAsJson = request.headers.get("X-Auth-Return-Redirect") === "1"
  const finish = (result: ResponseInternal) =>
    isRaw ? result : toResponse(result, returnRedirectAsJson)

  const resolution = resolveConfig(config)
  if (!resolution.ok) {
    resolution.logger.error(resolution.error)
    if (isRaw) throw resolution.error
    return finish(configurationErrorResult(request, config?.basePath, config?.pages?.error))
  }
  const resolved = resolution.config
  let internal: RequestInternal | undefined
  let ctx: RequestContext | undefined
  try {
    internal = await toInternalRequest(request, resolved)
    ctx = createContext(resolved, internal, request)
    return finish(await route(ctx))
  } catch (error) {
    if (error instanceof RequestError) {
      const log =
        error.status >= 500 ? resolved.logger.error : (e: Error) => resolved.logger.debug(e.message)
      log(error.error)
      // A server-side refusal (UntrustedHost) on a page a browser shows: the error page, not JSON.
      if (error.status >= 500 && !isApiPath(request, resolved.basePath)) {
        return finish(configurationErrorResult(request, resolved.basePath, resolved.pages.error))
      }
      return finish({
        status: error.status,
        headers: error.headers,
        body: { error: error.error.type, message: error.error.message },
      })
    }
    resolved.logger.error(error instanceof Error ? error : new AuthError(String(error)))
    if (isRaw && error instanceof AuthError && !returnRedirectAsJson) throw error
    if (!internal)
      return finish({
        status: 400,
        body: { error: "InvalidRequest", message: "The request could not be read" },
      })
    // A failed flow still clears what it meant to clear (used PKCE/state/challenge cookies),
    // but nothing it was about to set (a session) survives the failure.
    const clears = ctx?.cookies.filter((cookie) => cookie.options.maxAge === 0) ?? []
    return finish({ ...errorResult(resolved, internal, error), cookies: clears })
  }
}

/** Where a failed flow sends the user: the sign-in or error page with a documented `error` value. */
function errorResult(
  config: ResolvedConfig,
  request: RequestInternal,
  error: unknown,
): ResponseInternal {
  const { page, value } = publicErrorOf(error)
  if (apiActions.has(request.action)) {
    if (request.action === "session" && request.method === "POST")
      return { status: 400, body: null }
    const status = error instanceof MissingCSRF ? 403 : isClientError(error) ? 400 : 500
    return {
      status,
      body: { error: value, message: status === 500 ? configurationMessage : undefined },
    }
  }
  const params = new URLSearchParams({ error: value })
  if (error instanceof CredentialsSignin) params.set("code", error.code)
  if (request.action === "error") {
    // The error page itself failed: render the built-in one rather than loop.
    const rendered = renderErrorPage(config.theme, undefined, value)
    return { status: rendered.status, body: rendered.body }
  }
  const custom = page === "signIn" ? config.pages.signIn : config.pages.error
  const path = custom ?? `${config.basePath}/${page === "signIn" ? "signin" : "error"}`
  const url = new URL(path, request.url.origin)
  for (const [key, v] of params) url.searchParams.set(key, v)
  return { redirect: url.href }
}

/** True when the request is for one of the JSON actions (by path alone: the request may not parse). */
function isApiPath(request: Request, basePath: string | undefined): boolean {
  try {
    const { action } = parseActionPath(
      new URL(request.url).pathname,
      (basePath ?? "/auth").replace(/\/+$/, ""),
    )
    return apiActions.has(action)
  } catch {
    return false
  }
}

/**
 * The configuration is broken: 500 JSON for API actions; for pages, the custom
 * error page when there is one (a relative redirect: the host is not trusted
 * yet), otherwise the built-in error page.
 */
function configurationErrorResult(
  request: Request,
  basePath: string | undefined,
  errorPage: unknown,
): ResponseInternal {
  if (isApiPath(request, basePath)) {
    return { status: 500, body: { error: "Configuration", message: configurationMessage } }
  }
  if (typeof errorPage === "string" && errorPage.startsWith("/") && !errorPage.startsWith("//")) {
    return { redirect: `${errorPage}${errorPage.includes("?") ? "&" : "?"}error=Configuration` }
  }
  const page = renderErrorPage({ colorScheme: "auto" }, undefined, "Configuration")
  return { status: 500, body: page.body }
}

export type { LoggerInstance }
