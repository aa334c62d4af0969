/**
 * The per-request state an action works with. The resolved configuration is
 * shared and immutable; everything request-specific lives here, and every step
 * of a request (policies, the action, its flow) appends the cookies it sets to
 * `cookies`, which the handler puts on the response once.
 * @module
 */
import type { ResolvedCookies } from "./config/cookies.js"
import type { ResolvedConfig } from "./config/resolve.js"
import type { ProviderFlow } from "./flows/types.js"
import type { PendingClaims } from "./two-factor/pending.js"
import type { Cookie, RequestInternal } from "./types.js"

export interface RequestContext {
  readonly config: ResolvedConfig
  readonly request: RequestInternal
  /** The original request, as given to `Auth()` (passed to `authorize`, `sendVerificationRequest`). */
  readonly original: Request | undefined
  /** The application's origin, e.g. `https://app.example`: the only origin URLs are built on. */
  readonly origin: string
  /** Origin + basePath: the root of every action URL. */
  readonly authUrl: string
  /** The cookie names and options for this request (secure on https). */
  readonly cookieOptions: ResolvedCookies
  /** The provider named in the URL, bound to its flow, when there is one and it exists. */
  readonly flow: ProviderFlow | undefined
  /** Cookies to set on the response, appended to by every step. */
  readonly cookies: Cookie[]
  /**
   * This browser's pending second-factor sign-in, read once per request
   * (`two-factor/pending.ts`): per-request state lives here, not in module scope.
   */
  pendingSecondFactor: Promise<PendingClaims | undefined> | undefined
}

export function createContext(
  config: ResolvedConfig,
  request: RequestInternal,
  original: Request | undefined,
): RequestContext {
  const origin = request.url.origin
  const secure = config.useSecureCookies ?? request.url.protocol === "https:"
  return {
    config,
    request,
    original,
    origin,
    authUrl: `${origin}${config.basePath}`,
    cookieOptions: secure ? config.cookies.secure : config.cookies.insecure,
    flow: request.providerId ? config.flows.get(request.providerId) : undefined,
    cookies: [],
    pendingSecondFactor: undefined,
  }
}
