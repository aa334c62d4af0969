/**
 * The route table: every action `Auth()` answers, declared once.
 *
 * Per action: the methods it answers and, per method, whether the request must
 * echo the CSRF token and the handler; whether it answers JSON to scripts or
 * pages to browsers (which decides how a failure is shown); whether the next
 * path segment names a provider; which rate limits apply
 * (`rate-limit/policies.ts`). The handler (`handler.ts`) applies these
 * policies before any action runs, so no action checks them itself.
 * @module
 */
import { csrf, providers, session } from "./actions/api.js"
import { callback, webauthnOptions } from "./actions/callback.js"
import { signIn } from "./actions/signin.js"
import type { RequestContext } from "./context.js"
import type { RateLimitRuleName } from "./rate-limit/config.js"
import { InvalidRequest, UnknownAction } from "./errors.js"
import { RequestError } from "./http/request.js"
import type { Method, ProviderFlow } from "./flows/types.js"
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
  /**
   * Rate limits checked (and counted) before the handler runs, by rule: each
   * rule's policy (`rate-limit/policies.ts`, loaded with the first request a
   * limit applies to) says which requests it counts and under what subject.
   */
  readonly rateLimit?: readonly RateLimitRuleName[]
  /**
   * `true`: a signed-in request must have signed in within
   * `session.recentSignInAge` (`session/recent-sign-in.ts`); a function
   * decides per request. For what adds a sign-in method or a second factor:
   * a copied session cookie must not become lasting access.
   */
  readonly recentSignIn?: boolean | ((ctx: RequestContext) => boolean)
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
  readonly GET?: Endpoint
  readonly POST?: Endpoint
}

/**
 * A built-in page, loaded with the first request for one: a session check, the
 * hot path of a cold start, never loads the pages and their strings.
 */
const page =
  (name: "signInPage" | "signOutPage" | "errorPage" | "verifyRequestPage"): Handler =>
  async (ctx) =>
    (await import("./actions/pages.js"))[name](ctx)

/** Credentials and passkey callbacks need the token; OAuth and e-mail callbacks carry their own proof. */
const flowCallbackCsrf = (ctx: RequestContext) => {
  const { csrf } = ctx.flow!.callback
  return typeof csrf === "function" ? csrf(ctx) : csrf
}

/**
 * The two-factor actions, loaded on first use: with them come the TOTP and
 * recovery-code modules, which most requests (and every cold start) never need.
 */
function twoFactor(
  name:
    "twoFactorPage" | "twoFactorStatus" | "twoFactorSetup" | "twoFactorEnable" | "twoFactorDisable",
): Handler {
  return async (ctx) => (await import("./actions/two-factor.js"))[name](ctx)
}

/**
 * Signing out and the sessions routes, loaded with the first request for one:
 * a session check (the hot path of a cold start) never needs them.
 */
const signOut: Handler = async (ctx) => (await import("./actions/signout.js")).signOut(ctx)
const listSessions: Handler = async (ctx) =>
  (await import("./actions/sessions.js")).listSessionsAction(ctx)
const revokeSession: Handler = async (ctx) =>
  (await import("./actions/sessions.js")).revokeSessionAction(ctx)

/** Credentials are checked at `signin/<id>` too (Auth.js sends that POST to its sign-in page): the same limits apply there. */
const credentialsLimits = ["credentials", "credentialsIp"] as const
const signInLimits: readonly RateLimitRuleName[] = [...credentialsLimits, "email", "emailIp"]
const callbackLimits: readonly RateLimitRuleName[] = [
  ...credentialsLimits,
  "emailCode",
  "twoFactor",
]

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
    GET: { csrf: false, handler: page("signInPage") },
    // Starting a sign-in needs the token; a POST without a provider only shows the page.
    POST: { csrf: (ctx) => ctx.flow !== undefined, handler: signIn, rateLimit: signInLimits },
  },
  signout: {
    answers: "page",
    provider: "none",
    GET: { csrf: false, handler: page("signOutPage") },
    POST: { csrf: true, handler: signOut },
  },
  callback: {
    answers: "page",
    provider: "required",
    methodsFromFlow: true,
    GET: { csrf: flowCallbackCsrf, handler: callback, rateLimit: callbackLimits },
    POST: { csrf: flowCallbackCsrf, handler: callback, rateLimit: callbackLimits },
  },
  error: { answers: "page", provider: "none", GET: { csrf: false, handler: page("errorPage") } },
  "verify-request": {
    answers: "page",
    provider: "none",
    GET: { csrf: false, handler: page("verifyRequestPage") },
  },
  "webauthn-options": {
    answers: "json",
    provider: "required",
    GET: {
      csrf: false,
      handler: webauthnOptions,
      rateLimit: ["webauthnOptions", "webauthnOptionsIp"],
      // Registration options for a signed-in user add a passkey to their account; the two
      // sign-in ceremonies (a passkey sign-in, a second step) add nothing.
      recentSignIn: (ctx) =>
        ctx.request.query.action !== "authenticate" && ctx.request.query.action !== "two-factor",
    },
  },
  // Second factors. The step after the first factor is `callback/two-factor`, above.
  "two-factor": {
    answers: "page",
    provider: "none",
    GET: { csrf: false, handler: twoFactor("twoFactorPage") },
  },
  "two-factor/status": {
    answers: "json",
    provider: "none",
    GET: { csrf: false, handler: twoFactor("twoFactorStatus") },
  },
  "two-factor/setup": {
    answers: "json",
    provider: "none",
    POST: { csrf: true, handler: twoFactor("twoFactorSetup"), recentSignIn: true },
  },
  "two-factor/enable": {
    answers: "json",
    provider: "none",
    POST: { csrf: true, handler: twoFactor("twoFactorEnable"), rateLimit: ["twoFactor"] },
  },
  "two-factor/disable": {
    answers: "json",
    provider: "none",
    POST: { csrf: true, handler: twoFactor("twoFactorDisable"), rateLimit: ["twoFactor"] },
  },
  // The signed-in user's sessions: list them, end one (`sessions/revoke`).
  sessions: {
    answers: "json",
    provider: "none",
    GET: { csrf: false, handler: listSessions },
  },
  "sessions/revoke": {
    answers: "json",
    provider: "none",
    POST: { csrf: true, handler: revokeSession },
  },
  // Server to server, from the OpenID provider: the logout token is the proof, not a CSRF token.
  "backchannel-logout": {
    answers: "json",
    provider: "required",
    // Loaded on first use: it verifies logout tokens with the OAuth modules (oauth4webapi).
    POST: {
      csrf: false,
      handler: async (ctx) =>
        (await import("./actions/backchannel-logout.js")).backchannelLogout(ctx),
    },
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

/**
 * `<action>[/<provider>]`, where an action may be two segments
 * (`two-factor/setup`): the longer match wins.
 */
export function splitPath(path: string): {
  action: string | undefined
  provider: string | undefined
  rest: string[]
} {
  const [first, second, ...rest] = path.split("/")
  if (second !== undefined && isAuthAction(`${first}/${second}`)) {
    const [provider, ...more] = rest
    return { action: `${first}/${second}`, provider, rest: more }
  }
  return { action: first, provider: second, rest }
}

export interface RouteMatch {
  readonly action: AuthAction
  readonly route: Route
  readonly providerId?: string
}

const PROVIDER_ID = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The route of `<basePath>/<action>[/<providerId>]` and the method check:
 * unknown paths are 404, a method the route does not answer 405 (with `Allow`),
 * a malformed provider id 400. `flows` (the configuration's) name the configured
 * providers (any other is a 404, whatever the method) and the methods each
 * callback answers (for `Allow`); without them an unknown provider is left to the handler.
 */
export function matchRoute(
  pathname: string,
  basePath: string,
  method: string,
  flows?: ReadonlyMap<string, ProviderFlow>,
): RouteMatch {
  if (!pathname.startsWith(`${basePath}/`)) {
    throw new RequestError(
      new UnknownAction(`Not an auth route: paths start with ${basePath}/`),
      404,
    )
  }
  const { action, provider, rest } = splitPath(pathname.slice(basePath.length + 1))
  // One trailing slash after the provider id is the route without it, as `session/` is: Auth.js
  // drops empty segments, so an app's `callback/<id>/` worked there. Anything further is no route.
  const trailingSlash = rest.length === 1 && rest[0] === "" && !!provider
  if (!action || !isAuthAction(action) || (rest.length > 0 && !trailingSlash)) {
    throw new RequestError(new UnknownAction("Unknown action"), 404)
  }
  const route = routes[action]
  // The path's shape before the method: a path that is no route is a 404 whatever the method,
  // never a 405 whose `Allow` names methods the same path would answer 404 to.
  const noProvider = provider === undefined || provider === ""
  if (noProvider && route.provider === "required") {
    throw new RequestError(new UnknownAction("A provider id is required"), 404)
  }
  if (!noProvider && route.provider === "none") {
    throw new RequestError(new UnknownAction("Unknown action"), 404)
  }
  let providerId: string | undefined
  if (!noProvider) {
    providerId = decodeProviderId(provider)
    if (providerId === undefined || !PROVIDER_ID.test(providerId)) {
      throw new RequestError(new InvalidRequest("Malformed provider id"), 400)
    }
    // An unknown provider is no resource: 404 whatever the method (once the configuration is known).
    if (flows && !flows.has(providerId)) {
      throw new RequestError(new UnknownAction("Unknown provider"), 404)
    }
  }
  // `Allow` names what this resource answers: for a callback, its provider's flow decides
  // (a credentials callback answers POST only, so `Allow: GET, POST` would send a client to a 405).
  const allow = () => {
    const fromFlow =
      route.methodsFromFlow && providerId ? flows?.get(providerId)?.callback.methods : undefined
    return (fromFlow ?? methodsOf(route)).join(", ")
  }
  if (method !== "GET" && method !== "POST") {
    throw new RequestError(new UnknownAction(`${method} is not supported`), 405, {
      Allow: allow(),
    })
  }
  if (!route[method]) {
    throw new RequestError(
      new UnknownAction(`The ${action} action does not answer ${method}`),
      405,
      { Allow: allow() },
    )
  }
  return providerId === undefined ? { action, route } : { action, route, providerId }
}

/** A provider path segment decoded, or `undefined` when it does not decode. */
function decodeProviderId(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}
