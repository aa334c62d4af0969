/**
 * Resolves and validates an `AuthConfig` once. The result (or the configuration
 * error) is cached per config object, so requests never redo this work, and a
 * configuration error is logged once, when it is found, not on every request.
 *
 * The resolved configuration owns what is derived from it: the key ring of its
 * secrets, each provider's flow and that flow's caches (OAuth clients and
 * metadata, mail transports). Nothing of it lives in module-level maps.
 * @module
 */
import type { Adapter } from "../adapters.js"
import {
  AuthError,
  InvalidConfiguration,
  InvalidSecret,
  MissingAdapter,
  MissingAdapterMethods,
  MissingSecret,
  UntrustedHost,
} from "../errors.js"
import type { ProviderFlow, ResolvedEmailProvider, ResolvedProvider } from "../flows/types.js"
import type { JWTOptions } from "../jwt.js"
import { decrypt, encrypt } from "../jwt/codec.js"
import { KeyRing } from "../jwt/keys.js"
import type { OAuthCaches } from "../flows/oauth/cache.js"
import { resolveLocalization, type Localization } from "../pages/i18n/localization.js"
import {
  clearsInTwoSteps,
  codesUnguarded,
  resolveRateLimits,
  type CodeLimits,
  type ResolvedRateLimits,
} from "../rate-limit/config.js"
import { loadSessionStrategy, type SessionStrategyHandler } from "../session/index.js"
import { raw, skipCSRFCheck } from "../symbols.js"
import type { ResolvedTwoFactor } from "../two-factor/config.js"
import { TWO_FACTOR_ID } from "../two-factor/id.js"
import type {
  CallbacksOptions,
  CookiesOptions,
  EventCallbacks,
  LoggerInstance,
  PagesOptions,
  SessionOptions,
  Theme,
} from "../types.js"
import type { AuthConfig } from "./auth-config.js"
import { defaultCallbacks } from "./callbacks.js"
import { defaultCookies, mergeCookies, type ResolvedCookies } from "./cookies.js"
import { environmentDefaults, processEnv, suppressed } from "./env.js"
import { originOf } from "./derived.js"
import { createLogger } from "./logger.js"
import { parseAllowedHosts, parseCanonicalUrl, type OriginPolicy } from "./origin.js"
import { resolveProviders } from "./providers.js"
import { sayOnce, warningsSaid } from "./warnings-said.js"

/** Session options with every default filled in (the public type leaves Tessera's optional). */
export type ResolvedSessionOptions = Required<SessionOptions>

export interface ResolvedConfig {
  readonly basePath: string
  /** Non-empty; the first encodes, all decode. */
  readonly secrets: readonly string[]
  /** Keys derived from `secrets`, derived once. */
  readonly keys: KeyRing
  readonly providers: readonly ResolvedProvider[]
  /** Each provider's flow, by provider id. */
  readonly flows: ReadonlyMap<string, ProviderFlow>
  readonly adapter: Adapter | undefined
  readonly session: Readonly<ResolvedSessionOptions>
  /** The steps of `session.strategy` (reading, starting and ending sessions). */
  readonly sessionStrategy: SessionStrategyHandler
  /**
   * Sessions have records (both strategies) that can be listed and revoked: the
   * adapter has the session-record methods. See `session/records.ts`.
   */
  readonly sessionRecords: boolean
  /**
   * Warnings said once per process to this configuration's logger (not once per request, nor
   * once per object: an app may build a new one per request; `config/warnings-said.ts`).
   */
  readonly warned: Set<string>
  /** Adoptions of Auth.js cookies under way, by the cookie's hash: one per cookie in this process. */
  readonly authjsAdoptions: Map<string, Promise<unknown>>
  /** What the OAuth flow keeps per provider (metadata, client, logout keys): `flows/oauth/cache.ts`. */
  readonly oauth: OAuthCaches
  readonly jwt: Readonly<JWTOptions>
  readonly callbacks: Readonly<CallbacksOptions>
  readonly events: Readonly<Partial<EventCallbacks>>
  readonly pages: Readonly<Partial<PagesOptions>>
  readonly theme: Readonly<Theme>
  /** The language of the built-in pages and e-mails (`theme.locale`, `locales`, `messages`), checked. */
  readonly localization: Localization
  readonly logger: LoggerInstance
  readonly debug: boolean
  /** Which origin URLs are built on, and which request hosts are accepted. */
  readonly origin: OriginPolicy
  readonly trustHost: boolean
  readonly skipCSRFCheck: boolean
  readonly raw: boolean
  readonly useSecureCookies: boolean | undefined
  /** Cookie settings for https and for http requests, chosen per request. */
  readonly cookies: { readonly secure: ResolvedCookies; readonly insecure: ResolvedCookies }
  readonly redirectProxyUrl: string | undefined
  /** Second factors, when on (the adapter stores them, and `twoFactor` is not false). */
  readonly twoFactor: ResolvedTwoFactor | undefined
  /** The rate limits the routes apply; `undefined` with `rateLimit: false`. */
  readonly rateLimits: ResolvedRateLimits | undefined
  /** The configuration as the user gave it. */
  readonly source: AuthConfig
}

const DAY = 24 * 60 * 60
const MIN_SECRET_LENGTH = 32

export type Resolution =
  { ok: true; config: ResolvedConfig } | { ok: false; error: AuthError; logger: LoggerInstance }

const resolutions = new WeakMap<AuthConfig, Resolution | Promise<Resolution>>()

/**
 * The resolved configuration, or the configuration error, for `config`.
 * Computed on first sight of the object (asynchronously: the flows its
 * providers need are loaded then) and cached; later calls answer synchronously.
 */
export function resolveConfig(config: AuthConfig): Resolution | Promise<Resolution> {
  // Not an object (a JavaScript caller forgot it): nothing to cache it under.
  if (config === null || typeof config !== "object") {
    const error = new InvalidConfiguration("Auth() needs a configuration object")
    const logger = createLogger(false, undefined)
    logger.error(error)
    return { ok: false, error, logger }
  }
  const cached = resolutions.get(config)
  if (cached) return cached
  const pending = resolveOnce(config).then((resolution) => {
    resolutions.set(config, resolution)
    return resolution
  })
  resolutions.set(config, pending)
  return pending
}

async function resolveOnce(config: AuthConfig): Promise<Resolution> {
  const logger = createLogger(!!config.debug, config.logger)
  try {
    // AUTH_* variables fill what the configuration leaves unset, without changing it.
    // One snapshot, so each option (a getter, maybe) is read once.
    const snapshot = { ...config }
    const env = processEnv()
    const effective = env ? { ...snapshot, ...environmentDefaults(env, snapshot) } : snapshot
    return { ok: true, config: Object.freeze(await resolve(effective, config, logger)) }
  } catch (thrown) {
    const error =
      thrown instanceof AuthError
        ? thrown
        : new InvalidConfiguration("Invalid configuration", { cause: { err: thrown } })
    // Once per configuration object: every later request gets the cached failure.
    logger.error(error)
    return { ok: false, error, logger }
  }
}

function resolveSecrets(secret: AuthConfig["secret"]): string[] {
  const secrets = (Array.isArray(secret) ? secret : [secret]).filter(
    (s) => s !== undefined && s !== "",
  )
  if (secrets.length === 0) {
    throw new MissingSecret(
      "Please define a `secret` (or set AUTH_SECRET): 32 or more random characters, e.g. from `npx tessera secret`",
    )
  }
  secrets.forEach((s, i) => {
    if (typeof s !== "string" || s.length < MIN_SECRET_LENGTH) {
      const which = secrets.length > 1 ? `Secret #${i + 1}` : "The secret"
      throw new InvalidSecret(
        `${which} is shorter than ${MIN_SECRET_LENGTH} characters; use \`npx tessera secret\` to make one`,
      )
    }
  })
  return secrets as string[]
}

/**
 * The theme, with a top-level `locale` moved into it: `locale` is what issue 14
 * calls the option, `theme.locale` where Tessera keeps it (beside `locales` and
 * `messages`). Both set and different is a mistake to report, not to guess at.
 */
function themeOf(config: AuthConfig): Theme | undefined {
  const { locale, theme } = config
  if (locale === undefined) return theme
  if (theme?.locale !== undefined && theme.locale !== locale) {
    throw new InvalidConfiguration(
      `locale (${JSON.stringify(locale)}) and theme.locale (${JSON.stringify(theme.locale)}) disagree: set one of them`,
    )
  }
  return { ...theme, locale }
}

/** `basePath`, else the path of the canonical `url`, else `/auth`. */
function resolveBasePath(basePath: string | undefined, urlPath: string | undefined): string {
  const path = basePath ?? urlPath ?? "/auth"
  if (typeof path !== "string" || !path.startsWith("/") || /[?#\s]/.test(path)) {
    throw new InvalidConfiguration(`basePath must be a path starting with "/", got "${path}"`)
  }
  const trimmed = path.replace(/\/+$/, "")
  // Written as a URL writes its path, or core would serve one path and build URLs on another:
  // `//auth` would even make them protocol-relative, another host's (`//auth/signin`).
  if (trimmed && (trimmed.startsWith("//") || new URL(trimmed, "http://h").pathname !== trimmed)) {
    throw new InvalidConfiguration(
      `basePath "${path}" is not written as a URL path is (no "//" at the start, no "." or ".." segments, no backslashes, non-ASCII percent-encoded): the routes would not be where their URLs point`,
    )
  }
  // Only an explicit basePath can be all slashes (a URL's "/" path means the default). The routes
  // would sit among the app's own pages, and the integrations and core would disagree on them.
  if (!trimmed) {
    throw new InvalidConfiguration(
      `basePath "${path}" would put the auth routes at the site's root, among the app's pages: use a prefix such as "/auth"`,
    )
  }
  return trimmed
}

/**
 * The host trust model (see `config/origin.ts`). Found here, once: no way to
 * know the origin at all (a configuration error), or trusting any host a
 * client names (a warning).
 */
function resolveOrigin(
  config: AuthConfig,
  source: AuthConfig,
  logger: LoggerInstance,
): { policy: OriginPolicy; urlPath: string | undefined } {
  const canonical =
    parseCanonicalUrl(config.url, "url") ?? parseCanonicalUrl(config.origin, "origin")
  if (config.origin !== undefined && config.url !== undefined) {
    throw new InvalidConfiguration("Set url or origin, not both")
  }
  const trustHost = !!config.trustHost
  const allowedHosts = parseAllowedHosts(config.allowedHosts)
  const urlPath = canonical?.pathname.replace(/\/+$/, "")
  // Only a basePath that disagrees with the URL's path is worth a word: an equal one may be
  // the URL's path filled in by setEnvDefaults (on a copy, in the integrations), not the app's.
  if (
    urlPath &&
    config.basePath !== undefined &&
    !suppressed.has(source) &&
    !suppressed.has(originOf(source))
  ) {
    if (urlPath !== config.basePath.replace(/\/+$/, "")) logger.warn("env-url-basepath-mismatch")
  }
  if (!canonical && !trustHost) {
    throw new UntrustedHost(
      "The application's origin is unknown: set AUTH_URL (or `url`), or trustHost (AUTH_TRUST_HOST) with allowedHosts",
    )
  }
  if (!canonical && !allowedHosts) {
    logger.warn("trust-host-unbounded")
  }
  return {
    policy: { canonical: canonical && new URL(canonical.origin), trustHost, allowedHosts },
    urlPath: urlPath || undefined,
  }
}

function resolveSession(config: AuthConfig, adapter: Adapter | undefined): ResolvedSessionOptions {
  const strategy = config.session?.strategy ?? (adapter ? "database" : "jwt")
  if (strategy === "database") {
    if (!adapter) throw new MissingAdapter('session.strategy "database" needs an adapter')
    const missing = (
      ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] as const
    ).filter((m) => typeof adapter[m] !== "function")
    if (missing.length) {
      throw new MissingAdapterMethods(
        `Database sessions need adapter methods: ${missing.join(", ")}`,
      )
    }
  }
  const revalidateAge = config.session?.revalidateAge ?? 60
  if (typeof revalidateAge !== "number" || !Number.isFinite(revalidateAge) || revalidateAge < 0) {
    throw new InvalidConfiguration(
      "session.revalidateAge must be 0 or a positive number of seconds",
    )
  }
  const maxAge = config.session?.maxAge ?? 30 * DAY
  const absoluteMaxAge = config.session?.absoluteMaxAge ?? Math.max(30 * DAY, maxAge)
  if (!Number.isFinite(absoluteMaxAge) || absoluteMaxAge <= 0) {
    throw new InvalidConfiguration("session.absoluteMaxAge must be a positive number of seconds")
  }
  // Database sessions know when they signed in only from a session record: on an
  // adapter that keeps none (an Auth.js adapter), the check is off unless the app
  // asks for it (then such sessions are refused: nothing shows they are recent).
  const recentSignInAge =
    config.session?.recentSignInAge ??
    (strategy === "database" && !hasSessionRecords(adapter, strategy) ? Infinity : 10 * 60)
  if (
    typeof recentSignInAge !== "number" ||
    Number.isNaN(recentSignInAge) ||
    recentSignInAge <= 0
  ) {
    throw new InvalidConfiguration(
      "session.recentSignInAge must be a positive number of seconds (Infinity: no check)",
    )
  }
  return {
    strategy,
    maxAge,
    absoluteMaxAge,
    revalidateAge,
    recentSignInAge,
    updateAge: config.session?.updateAge ?? DAY,
    generateSessionToken: config.session?.generateSessionToken ?? defaultSessionToken,
  }
}

/**
 * Whether sessions get records that can be listed and revoked: the adapter has
 * the methods the strategy needs (JWT sessions also create and revalidate theirs).
 */
function hasSessionRecords(adapter: Adapter | undefined, strategy: SessionOptions["strategy"]) {
  if (!adapter) return false
  const needed = ["listSessionRecords", "deleteSessionRecords"] as const
  const jwt = ["createSessionRecord", "touchSessionRecord"] as const
  return [...needed, ...(strategy === "jwt" ? jwt : [])].every(
    (method) => typeof adapter[method] === "function",
  )
}

/**
 * `encode`/`decode` unless the app brought its own: the codec with this
 * configuration's key ring, so keys are derived once for the configuration.
 */
function resolveJwt(
  config: AuthConfig,
  session: ResolvedSessionOptions,
  keys: KeyRing,
): JWTOptions {
  return {
    maxAge: config.jwt?.maxAge ?? session.maxAge,
    encode:
      config.jwt?.encode ??
      ((params) =>
        encrypt(
          KeyRing.for(params.secret, keys),
          params.salt,
          params.token ?? {},
          params.maxAge ?? session.maxAge,
        )),
    decode:
      config.jwt?.decode ??
      ((params) =>
        params.token ? decrypt(KeyRing.for(params.secret, keys), params.salt, params.token) : null),
  }
}

/**
 * Second factors, when they can be on (`twoFactor` given, or an adapter that may store them),
 * with their step added to `flows`. Their modules load only then: an app without an adapter
 * does not load them (cold start).
 */
async function resolveSecondFactors(
  option: AuthConfig["twoFactor"],
  adapter: Adapter | undefined,
  flows: Map<string, ProviderFlow>,
): Promise<ResolvedTwoFactor | undefined> {
  if (option === false || (option === undefined && !adapter)) return undefined
  const { resolveTwoFactor } = await import("../two-factor/config.js")
  const twoFactor = resolveTwoFactor(option, adapter)
  if (!twoFactor) return undefined
  if (flows.has(TWO_FACTOR_ID)) {
    throw new InvalidConfiguration(
      `The provider id "${TWO_FACTOR_ID}" is the second-factor step's: rename the provider`,
    )
  }
  // The second step is a pseudo-provider: `callback/two-factor` goes through the route table like any callback.
  const { twoFactorFlow } = await import("../two-factor/flow.js")
  flows.set(TWO_FACTOR_ID, twoFactorFlow)
  return twoFactor
}

/**
 * @param config The configuration with the environment's defaults filled in.
 * @param source The configuration as the app gave it.
 */
async function resolve(
  config: AuthConfig,
  source: AuthConfig,
  logger: LoggerInstance,
): Promise<ResolvedConfig> {
  // Said once per process to this logger: for every object of the app (one per request, or an
  // integration's copies), not once per object.
  const warned = warningsSaid(config.logger)
  const once: LoggerInstance = { ...logger, warn: (code) => sayOnce(logger, warned, code) }
  const providerList = config.providers
  if (!Array.isArray(providerList)) throw new InvalidConfiguration("`providers` must be an array")
  const secrets = resolveSecrets(config.secret)
  const keys = new KeyRing(secrets)
  const adapter = config.adapter
  const session = resolveSession(config, adapter)
  const redirectProxyUrl = config.redirectProxyUrl
  const { policy: origin, urlPath } = resolveOrigin(config, source, once)
  const basePath = resolveBasePath(config.basePath, urlPath)
  const { providers, flows } = await resolveProviders(providerList, {
    adapter,
    logger: once,
    warnAbout: (code, provider) => sayOnce(logger, warned, code, provider),
    redirectProxyUrl,
    sessionStrategy: session.strategy,
  })
  const theme = themeOf(config)
  const localization = await resolveLocalization(theme)
  const sessionStrategy = await loadSessionStrategy(session.strategy)
  const twoFactor = await resolveSecondFactors(config.twoFactor, adapter, flows)
  if (config.debug) once.warn("debug-enabled")
  if (session.recentSignInAge === Infinity && config.session?.recentSignInAge === undefined)
    once.warn("recent-sign-in-unenforced")
  const skip = config.skipCSRFCheck === skipCSRFCheck
  // Integrations (raw mode) skip CSRF because their framework checks it; only warn for direct use.
  if (skip && config.raw !== raw) once.warn("csrf-disabled")
  const cookieOverrides = config.cookies as Partial<CookiesOptions> | undefined
  const rateLimits = resolveRateLimits(config.rateLimit, secrets)
  if (codesUnguarded(rateLimits, codeLimits(flows, twoFactor)))
    once.warn("rate-limit-codes-unguarded")
  if (clearsInTwoSteps(config.rateLimit, rateLimits)) once.warn("rate-limit-store-not-atomic")
  return {
    basePath,
    secrets,
    keys,
    providers,
    flows,
    adapter,
    session,
    sessionStrategy,
    sessionRecords: hasSessionRecords(adapter, session.strategy),
    warned,
    oauth: new Map(),
    authjsAdoptions: new Map(),
    jwt: resolveJwt(config, session, keys),
    callbacks: { ...defaultCallbacks, ...config.callbacks },
    events: config.events ?? {},
    pages: config.pages ?? {},
    theme: { colorScheme: "auto", logo: "", brandColor: "", buttonText: "", ...theme },
    localization,
    logger,
    debug: !!config.debug,
    origin,
    trustHost: origin.trustHost,
    skipCSRFCheck: skip,
    raw: config.raw === raw,
    useSecureCookies: config.useSecureCookies,
    cookies: {
      secure: mergeCookies(defaultCookies(true), cookieOverrides),
      insecure: mergeCookies(defaultCookies(false), cookieOverrides),
    },
    redirectProxyUrl,
    twoFactor,
    rateLimits,
    source,
  }
}

/** Which limits on codes the flows need (see `CodeLimits`). */
function codeLimits(
  flows: ReadonlyMap<string, ProviderFlow>,
  twoFactor: ResolvedTwoFactor | undefined,
): CodeLimits {
  const email = [...flows.values()]
    .filter((flow) => flow.type === "email")
    .map((flow) => flow.provider as ResolvedEmailProvider)
  return {
    twoFactor: twoFactor !== undefined,
    emailCode: email.some((provider) => provider.method !== "link"),
  }
}

/** 32 bytes (256 bits) from the CSPRNG, hex. */
function defaultSessionToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
}
