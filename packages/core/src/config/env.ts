/**
 * Environment defaults: `AUTH_SECRET` (plus `AUTH_SECRET_1..3` for rotation),
 * `AUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_REDIRECT_PROXY_URL` and per-provider
 * `AUTH_<PROVIDER_ID>_ID` / `_SECRET` / `_ISSUER`.
 * @module
 */
import type { AuthConfig } from "./auth-config.js"
import type { AuthAction, LoggerInstance } from "../types.js"

type Env = Record<string, string | undefined>

/**
 * Returns a copy of `config` with values missing from it taken from `envObject`.
 * Never mutates `config`. The result is cached per config object while the
 * environment values stay the same, so calling it per request keeps the
 * resolved configuration cached too.
 *
 * @param envObject The environment, usually `process.env`: `AUTH_SECRET` (and `AUTH_SECRET_1..3`),
 *   `AUTH_URL`,
 *   `AUTH_TRUST_HOST`, `AUTH_REDIRECT_PROXY_URL`, `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`.
 * @param config The configuration; never changed.
 * @see [Auth.js: setEnvDefaults()](https://authjs.dev/reference/core#setenvdefaults)
 */
export function setEnvDefaults(envObject: Env, config: AuthConfig): AuthConfig {
  const signature = envSignature(envObject, config)
  const cached = envCache.get(config)
  if (cached && cached.signature === signature) return cached.result
  const result = withEnvDefaults(envObject, config)
  envCache.set(config, { signature, result })
  return result
}

const envCache = new WeakMap<AuthConfig, { signature: string; result: AuthConfig }>()

/** The environment variables a config depends on, listed once per config object. */
const envKeys = new WeakMap<AuthConfig, string[]>()

function envSignature(env: Env, config: AuthConfig): string {
  let keys = envKeys.get(config)
  if (!keys) {
    keys = [
      "AUTH_SECRET",
      "AUTH_SECRET_1",
      "AUTH_SECRET_2",
      "AUTH_SECRET_3",
      "AUTH_URL",
      "AUTH_TRUST_HOST",
      "AUTH_REDIRECT_PROXY_URL",
      "NODE_ENV",
    ]
    for (const provider of config.providers ?? []) {
      const prefix = envPrefix(providerId(provider))
      if (prefix) keys.push(`${prefix}_ID`, `${prefix}_SECRET`, `${prefix}_ISSUER`)
    }
    envKeys.set(config, keys)
  }
  // Runs per request in integrations, so a plain join: control characters don't occur in env values.
  let signature = ""
  for (const key of keys) signature += `${env[key] ?? "\u0000"}\u0001`
  return signature
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "false" && value !== "0"
}

function withEnvDefaults(env: Env, config: AuthConfig): AuthConfig {
  const result: AuthConfig = { ...config }
  const hasSecret = Array.isArray(config.secret) ? config.secret.length > 0 : !!config.secret
  if (!hasSecret) {
    // AUTH_SECRET signs new tokens; AUTH_SECRET_1..3 are older secrets still accepted.
    const secrets = [
      env.AUTH_SECRET,
      env.AUTH_SECRET_1,
      env.AUTH_SECRET_2,
      env.AUTH_SECRET_3,
    ].filter((s): s is string => !!s)
    if (secrets.length === 1) result.secret = secrets[0]
    else if (secrets.length > 1) result.secret = secrets
  }
  if (env.AUTH_URL && !config.basePath) {
    try {
      const { pathname } = new URL(env.AUTH_URL)
      if (pathname !== "/") result.basePath = pathname.replace(/\/$/, "")
    } catch {
      // An unparsable AUTH_URL gives no basePath (it still implies trustHost below); nothing reports it.
    }
  }
  result.redirectProxyUrl ??= env.AUTH_REDIRECT_PROXY_URL
  // Host headers come from the client, so they are trusted by default only in development.
  // (Auth.js trusts whenever NODE_ENV isn't "production", but adapters such as SvelteKit's
  // adapter-node never set NODE_ENV: a deployed app would trust any Host by default.)
  result.trustHost ??=
    !!env.AUTH_URL ||
    isTruthy(env.AUTH_TRUST_HOST) ||
    (env.AUTH_TRUST_HOST === undefined && env.NODE_ENV === "development")
  result.providers = (config.providers ?? []).map((provider) => providerWithEnv(provider, env))
  return result
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

function providerWithEnv(
  provider: AuthConfig["providers"][number],
  env: Env,
): AuthConfig["providers"][number] {
  const prefix = envPrefix(providerId(provider))
  if (!prefix) return provider
  const fromEnv: Record<string, string> = {}
  if (env[`${prefix}_ID`]) fromEnv.clientId = env[`${prefix}_ID`]!
  if (env[`${prefix}_SECRET`]) fromEnv.clientSecret = env[`${prefix}_SECRET`]!
  if (env[`${prefix}_ISSUER`]) fromEnv.issuer = env[`${prefix}_ISSUER`]!
  if (Object.keys(fromEnv).length === 0) return provider
  if (typeof provider === "function") return (provider as (options: object) => any)(fromEnv)
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

/**
 * The URL of an action, honouring `AUTH_URL`, then `X-Forwarded-Host`/`Host`.
 * For framework integrations that need to build auth URLs outside a request to `Auth()`.
 *
 * @param action The action, e.g. `signin` or `session`.
 * @param protocol The request's protocol (`http` or `https`), used when `AUTH_URL` is not set.
 * @param headers The request's headers (`X-Forwarded-Host`, `Host`).
 * @param envObject The environment (`AUTH_URL`).
 * @param config `basePath` and a logger for warnings.
 * @see [Auth.js: createActionURL()](https://authjs.dev/reference/core#createactionurl)
 * @see [RFC 7239 §4, Forwarded HTTP extension](https://www.rfc-editor.org/rfc/rfc7239.html#section-4) (the de-facto `X-Forwarded-*` headers predate it)
 */
export function createActionURL(
  action: AuthAction,
  protocol: string,
  headers: Headers,
  envObject: Env,
  config: Pick<AuthConfig, "basePath"> & { logger?: Partial<LoggerInstance> },
): URL {
  const basePath = config.basePath ?? "/auth"
  const envUrl = envObject.AUTH_URL
  if (envUrl) {
    const { origin, pathname } = new URL(envUrl)
    const path = config.basePath ?? (pathname !== "/" ? pathname.replace(/\/$/, "") : basePath)
    return new URL(`${origin}${path}/${action}`)
  }
  const host = headers.get("x-forwarded-host") ?? headers.get("host")
  const proto = headers.get("x-forwarded-proto") ?? protocol
  const scheme = proto.endsWith(":") ? proto : `${proto}:`
  return new URL(`${scheme}//${host}${basePath}/${action}`)
}
