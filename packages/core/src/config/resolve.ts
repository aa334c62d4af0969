/**
 * Resolves and validates an `AuthConfig` once. The result (or the configuration
 * error) is cached per config object, so requests never redo this work.
 * @module
 */
import type { Adapter } from "../adapters.js"
import { AuthError, InvalidSecret, MissingAdapter, MissingSecret } from "../errors.js"
import { decode, encode, type JWTOptions } from "../jwt.js"
import { raw, skipCSRFCheck } from "../symbols.js"
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
import { defaultCookies, mergeCookies } from "./cookies.js"
import { createLogger } from "./logger.js"
import { resolveProviders, type InternalProvider } from "./providers.js"
import { defaultCallbacks } from "./callbacks.js"

export interface ResolvedConfig {
  readonly basePath: string
  /** Non-empty; the first encodes, all decode. */
  readonly secrets: readonly string[]
  readonly providers: readonly InternalProvider[]
  readonly providersById: ReadonlyMap<string, InternalProvider>
  readonly adapter: Adapter | undefined
  readonly session: Readonly<SessionOptions>
  readonly jwt: Readonly<JWTOptions>
  readonly callbacks: Readonly<CallbacksOptions>
  readonly events: Readonly<Partial<EventCallbacks>>
  readonly pages: Readonly<Partial<PagesOptions>>
  readonly theme: Readonly<Theme>
  readonly logger: LoggerInstance
  readonly debug: boolean
  readonly trustHost: boolean
  readonly skipCSRFCheck: boolean
  readonly raw: boolean
  readonly useSecureCookies: boolean | undefined
  /** Cookie settings for https and for http requests, chosen per request. */
  readonly cookies: { readonly secure: CookiesOptions; readonly insecure: CookiesOptions }
  readonly redirectProxyUrl: string | undefined
  /** The configuration as the user gave it. */
  readonly source: AuthConfig
}

const DAY = 24 * 60 * 60
const MIN_SECRET_LENGTH = 32

type Resolution =
  { ok: true; config: ResolvedConfig } | { ok: false; error: AuthError; logger: LoggerInstance }
const resolutions = new WeakMap<AuthConfig, Resolution>()

/**
 * The resolved configuration, or the configuration error, for `config`.
 * Computed on first sight of the object and cached.
 */
export function resolveConfig(config: AuthConfig): Resolution {
  // Not an object (a JavaScript caller forgot it): nothing to cache it under.
  if (config === null || typeof config !== "object") {
    return {
      ok: false,
      error: new AuthError("Auth() needs a configuration object"),
      logger: createLogger(false, undefined),
    }
  }
  let resolution = resolutions.get(config)
  if (!resolution) {
    const logger = createLogger(!!config.debug, config.logger)
    try {
      resolution = { ok: true, config: Object.freeze(resolve(config, logger)) }
    } catch (error) {
      const authError =
        error instanceof AuthError
          ? error
          : new AuthError("Invalid configuration", { cause: { err: error } })
      resolution = { ok: false, error: authError, logger }
    }
    resolutions.set(config, resolution)
  }
  return resolution
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

function resolveBasePath(basePath: string | undefined): string {
  const path = basePath ?? "/auth"
  if (!path.startsWith("/") || /[?#\s]/.test(path))
    throw new AuthError(`basePath must be a path starting with "/", got "${path}"`)
  return path.replace(/\/+$/, "")
}

function resolve(config: AuthConfig, logger: LoggerInstance): ResolvedConfig {
  if (!config || typeof config !== "object")
    throw new AuthError("Auth() needs a configuration object")
  // Read once: a getter must not see a second, possibly different, value.
  const providerList = config.providers
  if (!Array.isArray(providerList)) throw new AuthError("`providers` must be an array")
  const secrets = resolveSecrets(config.secret)
  const adapter = config.adapter
  const strategy = config.session?.strategy ?? (adapter ? "database" : "jwt")
  if (strategy === "database") {
    if (!adapter) throw new MissingAdapter('session.strategy "database" needs an adapter')
    const missing = (
      ["createSession", "getSessionAndUser", "updateSession", "deleteSession"] as const
    ).filter((m) => typeof adapter[m] !== "function")
    if (missing.length)
      throw new MissingAdapter(`Database sessions need adapter methods: ${missing.join(", ")}`)
  }
  const session: SessionOptions = {
    strategy,
    maxAge: config.session?.maxAge ?? 30 * DAY,
    updateAge: config.session?.updateAge ?? DAY,
    generateSessionToken: config.session?.generateSessionToken ?? defaultSessionToken,
  }
  const jwt: JWTOptions = {
    maxAge: config.jwt?.maxAge ?? session.maxAge,
    encode: config.jwt?.encode ?? encode,
    decode: config.jwt?.decode ?? decode,
  }
  const redirectProxyUrl = config.redirectProxyUrl
  const providers = resolveProviders(providerList, {
    adapter,
    logger,
    redirectProxyUrl,
    sessionStrategy: strategy,
  })
  if (config.debug) logger.warn("debug-enabled")
  const skip = config.skipCSRFCheck === skipCSRFCheck
  // Integrations (raw mode) skip CSRF because their framework checks it; only warn for direct use.
  if (skip && config.raw !== raw) logger.warn("csrf-disabled")
  return {
    basePath: resolveBasePath(config.basePath),
    secrets,
    providers,
    providersById: new Map(providers.map((p) => [p.id, p])),
    adapter,
    session,
    jwt,
    callbacks: { ...defaultCallbacks, ...config.callbacks },
    events: config.events ?? {},
    pages: config.pages ?? {},
    theme: { colorScheme: "auto", logo: "", brandColor: "", buttonText: "", ...config.theme },
    logger,
    debug: !!config.debug,
    trustHost: !!config.trustHost,
    skipCSRFCheck: skip,
    raw: config.raw === raw,
    useSecureCookies: config.useSecureCookies,
    cookies: {
      secure: mergeCookies(defaultCookies(true), config.cookies as Partial<CookiesOptions>),
      insecure: mergeCookies(defaultCookies(false), config.cookies as Partial<CookiesOptions>),
    },
    redirectProxyUrl,
    source: config,
  }
}

/** 32 bytes (256 bits) from the CSPRNG, hex. */
function defaultSessionToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
}
