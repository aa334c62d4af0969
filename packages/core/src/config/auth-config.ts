/**
 * The configuration object passed to `Auth()`. Option names, shapes and defaults
 * mirror Auth.js v5's `AuthConfig`.
 * @module
 */
import type { Adapter } from "../adapters.js"
import type { JWTOptions } from "../jwt.js"
import type { Provider } from "../providers/index.js"
import type { raw, skipCSRFCheck } from "../symbols.js"
import type {
  CallbacksOptions,
  CookiesOptions,
  CookieOption,
  EventCallbacks,
  LoggerInstance,
  PagesOptions,
  SessionOptions,
  Theme,
} from "../types.js"

/**
 * The configuration of `Auth()`: the option names and shapes of Auth.js v5.
 *
 * @see [Auth.js: AuthConfig](https://authjs.dev/reference/core#authconfig)
 */
export interface AuthConfig {
  /** Sign-in methods. Order is the order of buttons on the built-in sign-in page. */
  providers: Provider[]
  /**
   * At least 32 random characters (`npx tessera secret`). A list enables rotation:
   * new tokens use the first, tokens made with any of them are accepted.
   * Default: `AUTH_SECRET` (via `setEnvDefaults`).
   */
  secret?: string | string[]
  session?: Partial<SessionOptions>
  jwt?: Partial<JWTOptions>
  /** Paths of your own pages replacing the built-in ones. */
  pages?: Partial<PagesOptions>
  callbacks?: Partial<CallbacksOptions>
  /** Fire-and-forget notifications. A handler that throws is logged and never breaks the flow. */
  events?: Partial<EventCallbacks>
  /** Stores users, accounts, sessions, verification tokens and authenticators. */
  adapter?: Adapter
  /** Logs debug messages through `logger.debug`. Default false. */
  debug?: boolean
  /** Override any of `debug`, `error`, `warn`; the others keep their defaults. */
  logger?: Partial<LoggerInstance>
  theme?: Theme
  /** Default: true when the request URL is https. */
  useSecureCookies?: boolean
  /** Override names and options of individual cookies. */
  cookies?: Partial<{ [K in keyof CookiesOptions]: Partial<CookieOption> }>
  /**
   * Trust `Host`, `X-Forwarded-Host` and `X-Forwarded-Proto`. Required (or
   * `AUTH_TRUST_HOST=true`, or `AUTH_URL`); `setEnvDefaults` enables it when `NODE_ENV=development`.
   */
  trustHost?: boolean
  /** @see {@link skipCSRFCheck} */
  skipCSRFCheck?: typeof skipCSRFCheck
  /** @see {@link raw} */
  raw?: typeof raw
  /** Forward OAuth callbacks through this URL (preview deployments). Default `AUTH_REDIRECT_PROXY_URL`. */
  redirectProxyUrl?: string
  /** Where the actions are mounted. Default `/auth`. */
  basePath?: string
  /** Accepted for Auth.js compatibility; Tessera has no experimental flags (passkeys are stable). */
  experimental?: Record<string, boolean>
}
