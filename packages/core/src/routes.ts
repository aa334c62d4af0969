/**
 * The route table: every action `Auth()` answers, declared once.
 *
 * Per action: the methods it answers and, per method, whether the request must
 * echo the CSRF token and the handler; whether it answers JSON to scripts or
 * pages to browsers (which decides how a failure is shown); whether the next
 * path segment names a provider. The handler (`handler.ts`) applies these
 * policies before any action runs, so no action checks them itself. Policies
 * added later (rate limits, second-factor gates) are declared here too.
 * @module
 */
import { csrf, providers, session } from "./actions/api.js"
import { backchannelLogout } from "./actions/backchannel-logout.js"
import { callback, webauthnOptions } from "./actions/callback.js"
import { errorPage, signInPage, signOutPage, verifyRequestPage } from "./actions/pages.js"
import { signIn } from "./actions/signin.js"
import { listSessionsAction, revokeSessionAction } from "./actions/sessions.js"
import { signOut } from "./actions/signout.js"
import type { RequestContext } from "./context.js"
import { InvalidRequest, UnknownAction } from "./errors.js"
import { RequestError } from "./http/request.js"
import type { Method } from "./flows/types.js"
import type { AuthAction, ResponseInternal } from "./types.js"

export type { Method }

export type Handler = (ctx: RequestContext) => Promise<ResponseInternal> | ResponseInternal

export interface Endpoint {
  /**
   * `true`: the request must come from this site and echo the CSRF token
   * (double submit). A function decides per request (e.g. as the provider's
   * flow declares for its callback).
   */
  readonly csrf: boolean | ((ctx: RequestContext) => boolean)
  readonly handler: Handler
}

export interface Route {
  /**
   * `"json"`: answers scripts; a failure is a JSON error with its status.
   * `"page"`: a browser shows it; a failure lands on the sign-in or error page.
   */
  readonly answers: "json" | "page"
  /** Whether the next path segment is a provider id: never, optionally, or always. */
  readonly provider: "none" | "optional" | "required"
  /** Each flow answers its callback with its own methods (credentials and passkeys: POST only). */
  readonly methodsFromFlow?: true
  /**
   * Routes below this one, by the next path segment: `<action>/<name>[/<providerId>]`
   * (`sessions/revoke`). A segment naming one is never taken for a provider id.
   */
  readonly subroutes?: { readonly [name: string]: Route }
  readonly GET?: Endpoint
  readonly POST?: Endpoint
}

/** Credentials and passkey callbacks need the token; OAuth and e-mail callbacks carry their own proof. */
const flowCallbackCsrf = (ctx: RequestContext) => ctx.flow!.callback.csrf

export const routes: { readonly [A in AuthAction]: Route } = {
  csrf: { answers: "json", provider: "none", GET: { csrf: false, handler: csrf } },
  providers: { answers: "json", provider: "none", GET: { csrf: false, handler: providers } },
  session: {
    answers: "json",
    provider: "none",
    GET: { csrf: false, handler: session },
    POST: { csrf: true, handler: session },
  },
  signin: {
    answers: "page",
    provider: "optional",
    GET: { csrf: false, handler: signInPage },
    // Starting a sign-in needs the token; a POST without a provider only shows the page.
    POST: { csrf: (ctx) => ctx.flow !== undefined, handler: signIn },
  },
  signout: {
    answers: "page",
    provider: "none",
    GET: { csrf: false, handler: signOutPage },
    POST: { csrf: true, handler: signOut },
  },
  callback: {
    answers: "page",
    provider: "required",
    methodsFromFlow: true,
    GET: { csrf: flowCallbackCsrf, handler: callback },
    POST: { csrf: flowCallbackCsrf, handler: callback },
  },
  error: { answers: "page", provider: "none", GET: { csrf: false, handler: errorPage } },
  "verify-request": {
    answers: "page",
    provider: "none",
    GET: { csrf: false, handler: verifyRequestPage },
  },
  "webauthn-options": {
    answers: "json",
    provider: "required",
    GET: { csrf: false, handler: webauthnOptions },
  },
  sessions: {
    answers: "json",
    provider: "none",
    GET: { csrf: false, handler: listSessionsAction },
    subroutes: {
      revoke: {
        answers: "json",
        provider: "none",
        POST: { csrf: true, handler: revokeSessionAction },
      },
    },
  },
  // Server to server, from the OpenID provider: the logout token is the proof, not a CSRF token.
  "backchannel-logout": {
    answers: "json",
    provider: "required",
    POST: { csrf: false, handler: backchannelLogout },
  },
}

/**
 * True if `action` names a route.
 *
 * @param action A path segment.
 * @see {@link AuthAction}
 */
export function isAuthAction(action: string): action is AuthAction {
  return Object.hasOwn(routes, action)
}

/** The methods `route` answers, for `Allow` headers. */
export function methodsOf(route: Route): Method[] {
  return (["GET", "POST"] as const).filter((method) => route[method] !== undefined)
}

export interface RouteMatch {
  readonly action: AuthAction
  /** The action and its subroute, e.g. `sessions/revoke`. */
  readonly path: string
  readonly route: Route
  readonly providerId?: string
}

const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The route of `<basePath>/<action>[/<subroute>][/<providerId>]` and the method
 * check: unknown paths are 404, a method the route does not answer 405 (with
 * `Allow`), a malformed provider id 400. A provider id that is well formed but
 * unknown is left to the handler (404 there, once the configuration is at hand).
 */
export function matchRoute(pathname: string, basePath: string, method: string): RouteMatch {
  if (!pathname.startsWith(`${basePath}/`)) {
    throw new RequestError(
      new UnknownAction(`Not an auth route: paths start with ${basePath}/`),
      404,
    )
  }
  const [action, ...segments] = pathname.slice(basePath.length + 1).split("/")
  if (!action || !isAuthAction(action)) {
    throw new RequestError(new UnknownAction("Unknown action"), 404)
  }
  let route = routes[action]
  let path: string = action
  const sub = segments[0]
  if (route.subroutes && sub !== undefined && Object.hasOwn(route.subroutes, sub)) {
    route = route.subroutes[sub]!
    path = `${action}/${sub}`
    segments.shift()
  }
  const [provider, ...rest] = segments
  if (rest.length > 0) throw new RequestError(new UnknownAction("Unknown action"), 404)
  const allowed = methodsOf(route)
  if (method !== "GET" && method !== "POST") {
    throw new RequestError(new UnknownAction(`${method} is not supported`), 405, {
      Allow: allowed.join(", "),
    })
  }
  if (!route[method]) {
    throw new RequestError(new UnknownAction(`The ${path} action does not answer ${method}`), 405, {
      Allow: allowed.join(", "),
    })
  }
  if (provider === undefined || provider === "") {
    if (route.provider === "required") {
      throw new RequestError(new UnknownAction("A provider id is required"), 404)
    }
    return { action, path, route }
  }
  if (route.provider === "none") throw new RequestError(new UnknownAction("Unknown action"), 404)
  let providerId: string
  try {
    providerId = decodeURIComponent(provider)
  } catch {
    throw new RequestError(new InvalidRequest("Malformed provider id"), 400)
  }
  if (!PROVIDER_ID.test(providerId)) {
    throw new RequestError(new InvalidRequest("Malformed provider id"), 400)
  }
  return { action, path, route, providerId }
}
