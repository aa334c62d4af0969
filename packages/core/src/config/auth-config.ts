/**
 * The configuration object passed to `Auth()`. Option names, shapes and defaults
 * mirror Auth.js v5's `AuthConfig`.
 * @module
 */
import type { Adapter } from "../adapters.js"
import type { JWTOptions } from "../jwt.js"
import type { Provider } from "../providers/index.js"
import type { RateLimitConfig } from "../rate-limit/config.js"
import type { raw, skipCSRFCheck } from "../symbols.js"
import type { TwoFactorConfig } from "../two-factor/config.js"
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
  /**
   * Every built-in page and e-mail in this locale: the same as `theme.locale`
   * (set either; both must agree). Default: negotiated per request from
   * `Accept-Language`. (Tessera addition.)
   */
  locale?: string
  /** Default: true when the request URL is https. */
  useSecureCookies?: boolean
  /** Override names and options of individual cookies. */
  cookies?: Partial<{ [K in keyof CookiesOptions]: Partial<CookieOption> }>
  /**
   * Keep users signed in across a move from Auth.js v5: a request with an
   * Auth.js session cookie (`authjs.session-token`) and no Tessera one has it
   * moved over (decrypted with the same secrets, or, with database sessions,
   * looked up as migrated by `tessera migrate --from authjs`). Default `true`
   * in the 0.x releases. (Tessera addition; see docs/migrating-from-authjs.md.)
   */
  adoptAuthjsSessions?: boolean
  /**
   * The canonical URL of the actions, e.g. `https://app.example.com/auth`
   * (default `AUTH_URL`). When set, every URL Tessera builds (mailed links,
   * redirects, OAuth callback URLs) is on its origin, whatever `Host` or
   * `X-Forwarded-*` a request carries; its path is the `basePath` unless one
   * is set. (Tessera addition; see "Hosts and proxies" in the README.)
   */
  url?: string
  /** The canonical origin, e.g. `https://app.example.com`: `url` without a path. (Tessera addition.) */
  origin?: string
  /**
   * Whether a request's host may be used. Without a canonical `url`: whether
   * `Host`/`X-Forwarded-Host`/`X-Forwarded-Proto` may set the origin URLs are
   * built on (bounded by `allowedHosts`). With one: whether requests for
   * other hosts are served at all (`false`: refused with 400). Default
   * `AUTH_TRUST_HOST`, or true with `AUTH_URL`, on Vercel and Cloudflare
   * Pages, and with `NODE_ENV` `development` or `test`.
   */
  trustHost?: boolean
  /**
   * The hosts a request may name (`X-Forwarded-Host`/`Host`), as exact hosts
   * (`app.example.com`, `localhost:3000`) or subdomain wildcards
   * (`*.example.com`); any other gets 400 `UntrustedHost`. Also the only hosts
   * the redirect proxy forwards to. Default `AUTH_ALLOWED_HOSTS`
   * (comma-separated). (Tessera addition.)
   */
  allowedHosts?: string[]
  /** @see {@link skipCSRFCheck} */
  skipCSRFCheck?: typeof skipCSRFCheck
  /** @see {@link raw} */
  raw?: typeof raw
  /** Forward OAuth callbacks through this URL (preview deployments). Default `AUTH_REDIRECT_PROXY_URL`. */
  redirectProxyUrl?: string
  /** Where the actions are mounted. Default `/auth`. */
  basePath?: string
  /**
   * Limits on the endpoints attackers hammer (credentials, e-mail sign-in,
   * one-time codes, passkey options, second-factor codes), on by default with
   * the defaults of `defaultRateLimitRules`; override a rule, set it to
   * `false`, or set `rateLimit: false` to turn every limit off. With second
   * factors or e-mailed codes on, turning their limit off (`twoFactor`,
   * `emailCode`) leaves guesses at a code unbounded: Tessera warns
   * `rate-limit-codes-unguarded` at start. (Tessera addition; see
   * docs/passwords-and-rate-limits.md.)
   */
  rateLimit?: RateLimitConfig | false
  /**
   * Second factors (TOTP authenticator apps, with recovery codes): on when the
   * adapter has the two-factor methods (`@tessera/sql` does, from migration
   * 0004). Users set them up through `two-factor/setup` and `enable`; once
   * enabled, every sign-in asks for a code at `pages.twoFactor`. `false` turns
   * them off. (Tessera addition; see "Two-factor authentication" in the README.)
   */
  twoFactor?: TwoFactorConfig | false
  /** Accepted for Auth.js compatibility; Tessera has no experimental flags (passkeys are stable). */
  experimental?: Record<string, boolean>
}
