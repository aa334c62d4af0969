/**
 * Environment defaults, as Auth.js reads them:
 *
 * - `AUTH_SECRET` and `AUTH_SECRET_1..3` (rotation: the list is
 *   `[AUTH_SECRET_3, AUTH_SECRET_2, AUTH_SECRET_1, AUTH_SECRET]` for those set;
 *   the first encodes, all decode);
 * - `AUTH_URL` (the canonical URL; its path is the `basePath` when none is set),
 *   `AUTH_TRUST_HOST`, `AUTH_ALLOWED_HOSTS` (Tessera), `AUTH_REDIRECT_PROXY_URL`;
 * - per provider `AUTH_<PROVIDER_ID>_ID` / `_SECRET` / `_ISSUER` (OAuth) and
 *   `_KEY` (the `apiKey` of e-mail HTTP providers).
 *
 * `Auth()` reads them from `process.env` by itself when it exists;
 * `setEnvDefaults` fills them into a configuration explicitly (for runtimes
 * whose environment is not `process.env`, e.g. Cloudflare bindings).
 * @module
 */
import { InvalidConfiguration, UntrustedHost } from "../errors.js"
import type { AuthAction, LoggerInstance } from "../types.js"
import type { AuthConfig } from "./auth-config.js"
import { createLogger } from "./logger.js"
import { HOST, isAllowedHost, parseAllowedHosts, parseCanonicalUrl } from "./origin.js"
import { sayOnce, warningsSaid } from "./warnings-said.js"

export type Env = Record<string, string | undefined>

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "false" && value !== "0"
}

/** `process.env` where the runtime has one (Node, Bun, Deno with compat), else `undefined`. */
export function processEnv(): Env | undefined {
  return (globalThis as { process?: { env?: Env } }).process?.env
}

/** `[AUTH_SECRET_3, AUTH_SECRET_2, AUTH_SECRET_1, AUTH_SECRET]`, those that are set (Auth.js's order). */
export function secretsFromEnv(env: Env): string[] {
  return [env.AUTH_SECRET_3, env.AUTH_SECRET_2, env.AUTH_SECRET_1, env.AUTH_SECRET].filter(
    (s): s is string => !!s,
  )
}

/**
 * The `NODE_ENV` values that say the app is not deployed: a dev server
 * (`vite dev`) or a test runner (Vitest and Jest set `test`). Auth.js trusts
 * any value but `production`; an unset one is where deployed apps live
 * (SvelteKit's adapter-node never sets it), and a value such as `staging`
 * names a deployment too, so those do not trust.
 */
const UNDEPLOYED = new Set(["development", "test"])

/**
 * Whether host headers may be trusted when the configuration does not say:
 * `AUTH_TRUST_HOST`, or a platform that owns the `Host` header (Vercel,
 * Cloudflare Pages), or `AUTH_URL` (URLs are then built on it anyway), or
 * `NODE_ENV` `development` or `test` (outside production, as in Auth.js).
 */
export function trustHostFromEnv(env: Env): boolean {
  if (env.AUTH_TRUST_HOST !== undefined) return isTruthy(env.AUTH_TRUST_HOST)
  return !!(
    env.AUTH_URL ||
    env.VERCEL ||
    env.CF_PAGES ||
    (env.NODE_ENV !== undefined && UNDEPLOYED.has(env.NODE_ENV))
  )
}

/** What `env` adds to `config`: values for the options it leaves unset, nothing else. */
export function environmentDefaults(env: Env, config: AuthConfig): Partial<AuthConfig> {
  const defaults: Partial<AuthConfig> = {}
  const hasSecret = Array.isArray(config.secret) ? config.secret.length > 0 : !!config.secret
  if (!hasSecret) {
    // Always a list, as Auth.js fills it: code reading `config.secret[0]` gets the current one.
    const secrets = secretsFromEnv(env)
    if (secrets.length > 0) defaults.secret = secrets
  }
  const canonical = config.url ?? config.origin ?? env.AUTH_URL
  if (env.AUTH_URL && config.url === undefined && config.origin === undefined) {
    defaults.url = env.AUTH_URL
  }
  // The path of the canonical URL (`url`, else AUTH_URL) is where the actions live, unless
  // basePath says otherwise. Filled in here, the integrations' routing reads the same base
  // path core serves: without it they sent `/auth/*` to core and `url`'s path to the app.
  if (!config.basePath && typeof canonical === "string") {
    const path = pathOf(canonical)
    if (path) defaults.basePath = path
  }
  if (config.trustHost === undefined) defaults.trustHost = trustHostFromEnv(env)
  if (config.allowedHosts === undefined && env.AUTH_ALLOWED_HOSTS) {
    defaults.allowedHosts = env.AUTH_ALLOWED_HOSTS.split(",").map((host) => host.trim())
  }
  if (config.redirectProxyUrl === undefined && env.AUTH_REDIRECT_PROXY_URL) {
    defaults.redirectProxyUrl = env.AUTH_REDIRECT_PROXY_URL
  }
  const providers = config.providers
  // Providers are looked at (factories called to learn their ids) only when some variable could be theirs.
  if (
    Array.isArray(providers) &&
    Object.keys(env).some((key) => PROVIDER_VARIABLE.test(key)) &&
    providers.some((p) => hasProviderEnv(p, env))
  ) {
    defaults.providers = providers.map((provider) => providerWithEnv(provider, env))
  }
  return defaults
}

/** `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER` or `_KEY`, but not `AUTH_SECRET_<n>`. */
const PROVIDER_VARIABLE = /^AUTH_(?!SECRET_\d$)[A-Z0-9_]+_(?:ID|SECRET|ISSUER|KEY)$/

/** The path of a URL without trailing slashes, or `undefined` for `/` or an unparsable URL. */
function pathOf(value: string): string | undefined {
  try {
    const path = new URL(value).pathname.replace(/\/+$/, "")
    return path === "" ? undefined : path
  } catch {
    // Reported when the configuration is resolved (`url` must parse).
    return undefined
  }
}

/** Configurations whose `setEnvDefaults` call asked for no basePath warning. */
export const suppressed = new WeakSet<AuthConfig>()

/** Filled copies of frozen configurations, by the frozen object. */
const copies = new WeakMap<AuthConfig, { env: Env; filled: AuthConfig }>()

/** The environment variables already applied to a configuration, so repeated calls do nothing. */
const applied = new WeakMap<AuthConfig, Env>()

/**
 * Fills the options `config` leaves unset from `envObject`, in place, and
 * returns `config`; a frozen `config` is left as it is and a filled copy is
 * returned. Values already set are never replaced. Calling it again (per
 * request, as framework integrations do) costs nothing.
 *
 * @param envObject The environment, e.g. `process.env` or a platform's bindings.
 * @param config The configuration to complete.
 * @param suppressBasePathWarning Do not warn when `AUTH_URL` has a path and `basePath` is set too.
 * @see [Auth.js: setEnvDefaults()](https://authjs.dev/reference/core#setenvdefaults)
 * @example
 * ```ts
 * setEnvDefaults(process.env, config)
 * const response = await Auth(request, config)
 * ```
 */
export function setEnvDefaults(
  envObject: Env,
  config: AuthConfig,
  suppressBasePathWarning = false,
): AuthConfig {
  // A frozen configuration cannot be filled in place: it gets a filled copy (one per
  // environment object, so calls per request answer the same copy and its cached resolution).
  if (!Object.isExtensible(config)) {
    const copy = copies.get(config)
    if (copy?.env === envObject) return copy.filled
    const filled = setEnvDefaults(envObject, { ...config }, suppressBasePathWarning)
    copies.set(config, { env: envObject, filled })
    return filled
  }
  if (applied.get(config) === envObject) return config
  applied.set(config, envObject)
  // As Auth.js: AUTH_URL with a path and a basePath too is worth a warning (basePath wins),
  // given here, once; resolution then stays quiet about it.
  const urlPath = envObject.AUTH_URL ? pathOf(envObject.AUTH_URL) : undefined
  if (urlPath && config.basePath && !suppressBasePathWarning && !suppressed.has(config)) {
    const logger = createLogger(!!config.debug, config.logger)
    // Once per process too: an app may call this on a new object per request.
    sayOnce(logger, warningsSaid(config.logger), "env-url-basepath-redundant")
    suppressed.add(config)
  }
  const defaults = environmentDefaults(envObject, config)
  Object.assign(config, defaults)
  // A base path taken from the URL's own path is no second setting to warn about.
  if (defaults.basePath) suppressed.add(config)
  // Resolution warns when AUTH_URL's path and basePath disagree; this opts out of it.
  if (suppressBasePathWarning) suppressed.add(config)
  return config
}

/** Ids of factory providers, so a factory is called once to learn its id, not per request. */
const factoryIds = new WeakMap<object, string | undefined>()

function providerId(provider: AuthConfig["providers"][number]): string | undefined {
  if (typeof provider === "function") {
    if (!factoryIds.has(provider)) factoryIds.set(provider, idOf(safeCall(provider)))
    return factoryIds.get(provider)
  }
  return idOf(provider)
}

function idOf(p: unknown): string | undefined {
  return (
    (p as { options?: { id?: string } } | undefined)?.options?.id ??
    (p as { id?: string } | undefined)?.id
  )
}

function safeCall(factory: (...args: any[]) => unknown): unknown {
  try {
    return factory()
  } catch {
    return undefined
  }
}

function envPrefix(id: string | undefined): string | undefined {
  return id ? `AUTH_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}` : undefined
}

/** `clientId`, `clientSecret`, `issuer` and `apiKey` as the environment gives them for `provider`. */
function providerEnv(provider: AuthConfig["providers"][number], env: Env): Record<string, string> {
  const prefix = envPrefix(providerId(provider))
  if (!prefix) return {}
  const fromEnv: Record<string, string> = {}
  const pairs = [
    ["clientId", "_ID"],
    ["clientSecret", "_SECRET"],
    ["issuer", "_ISSUER"],
    ["apiKey", "_KEY"],
  ] as const
  for (const [option, suffix] of pairs) {
    const value = env[`${prefix}${suffix}`]
    if (value) fromEnv[option] = value
  }
  return fromEnv
}

function hasProviderEnv(provider: AuthConfig["providers"][number], env: Env): boolean {
  return Object.keys(providerEnv(provider, env)).length > 0
}

function providerWithEnv(
  provider: AuthConfig["providers"][number],
  env: Env,
): AuthConfig["providers"][number] {
  const fromEnv = providerEnv(provider, env)
  if (Object.keys(fromEnv).length === 0) return provider
  if (typeof provider === "function") {
    // The factory keeps them in `options`; Auth.js also sets them on the provider it returns.
    const made = (provider as (options: object) => any)(fromEnv)
    if (!made || typeof made !== "object") return made
    for (const [key, value] of Object.entries(fromEnv)) made[key] ??= value
    return made
  }
  const p = provider as Record<string, any>
  const missing = Object.fromEntries(
    Object.entries(fromEnv).filter(([k]) => p[k] === undefined && p.options?.[k] === undefined),
  )
  return {
    ...p,
    ...missing,
    ...(p.options ? { options: { ...missing, ...p.options } } : {}),
  } as any
}

function firstValue(header: string | null): string | undefined {
  const value = header?.split(",")[0]?.trim()
  return value ? value : undefined
}

/**
 * The URL of an action, for framework integrations that build auth URLs
 * outside a request to `Auth()`, under the same host rules as `Auth()`: the
 * canonical URL (`config.url`, or `AUTH_URL`) when set; otherwise, only with
 * `trustHost` (or `AUTH_TRUST_HOST`), `X-Forwarded-Host`/`Host` and
 * `X-Forwarded-Proto`, checked against `allowedHosts` (`AUTH_ALLOWED_HOSTS`).
 * Throws `UntrustedHost` when the host cannot be trusted or is malformed.
 *
 * @param action The action (`signin`, `session`, ...).
 * @param protocol The request's protocol (`http`/`https`, with or without `:`); default `https`.
 * @param headers The request's headers.
 * @param envObject The environment (`process.env`).
 * @param config `basePath`, `url`, `trustHost`, `allowedHosts` and `logger` are read.
 * @see [Auth.js: createActionURL()](https://authjs.dev/reference/core#createactionurl)
 */
export function createActionURL(
  action: AuthAction,
  protocol: string | undefined,
  headers: Headers,
  envObject: Env,
  config: Pick<
    AuthConfig,
    "basePath" | "url" | "origin" | "trustHost" | "allowedHosts" | "debug"
  > & {
    logger?: Partial<LoggerInstance>
  },
): URL {
  const canonical = parseCanonicalUrl(config.url ?? config.origin ?? envObject.AUTH_URL, "AUTH_URL")
  const envPath = canonical ? pathOf(canonical.href) : undefined
  // Compared as written, as Auth.js does: "/api/auth/" against "/api/auth" is worth a warning too.
  if (
    config.basePath &&
    config.basePath !== "/" &&
    envPath &&
    canonical!.pathname !== config.basePath
  ) {
    createLogger(!!config.debug, config.logger).warn("env-url-basepath-mismatch")
  }
  const basePath = (config.basePath ?? envPath ?? "/auth").replace(/\/+$/, "")
  if (canonical) return new URL(`${canonical.origin}${basePath}/${action}`)

  const trusted = config.trustHost ?? trustHostFromEnv(envObject)
  if (!trusted) {
    throw new UntrustedHost("Set AUTH_URL, or trustHost, before building URLs from request headers")
  }
  const host = firstValue(headers.get("x-forwarded-host")) ?? firstValue(headers.get("host"))
  const forwardedProto = firstValue(headers.get("x-forwarded-proto"))
  if (forwardedProto !== undefined && forwardedProto !== "http" && forwardedProto !== "https") {
    throw new UntrustedHost("Malformed X-Forwarded-Proto")
  }
  const proto = (forwardedProto ?? protocol ?? "https").replace(/:$/, "")
  if (proto !== "http" && proto !== "https") {
    throw new InvalidConfiguration(
      `createActionURL: protocol must be http or https, got "${proto}"`,
    )
  }
  if (!host || !HOST.test(host)) throw new UntrustedHost("Missing or malformed host")
  const allowed = parseAllowedHosts(config.allowedHosts ?? envObject.AUTH_ALLOWED_HOSTS)
  if (allowed && !isAllowedHost(host, allowed))
    throw new UntrustedHost(`Host ${host} is not allowed`)
  try {
    return new URL(`${proto}://${host}${basePath}/${action}`)
  } catch {
    // The pattern lets through what only a full parse rejects, such as port 99999: as a request would be.
    throw new UntrustedHost("Missing or malformed host")
  }
}
