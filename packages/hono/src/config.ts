/**
 * The configuration core is called with for a Hono request. Core validates a
 * configuration once per object and caches it by identity, so each step here
 * (environment defaults, the session capture, the mount path) is derived at
 * most once per configuration object and reused: nothing builds a fresh
 * object per request, as long as the `initAuthConfig` callback returns the
 * same object each time.
 * @module
 */
import type { Context } from "hono"
import { env } from "hono/adapter"
import { routePath } from "hono/route"
import { deriveConfig, setEnvDefaults, type AuthConfig as CoreAuthConfig } from "@tessera/core"
import { withSessionCapture } from "./capture.js"

/**
 * The configuration `initAuthConfig` takes: core's, without `raw`.
 *
 * @see [@hono/auth-js](https://github.com/honojs/middleware/tree/main/packages/auth-js) (`AuthConfig`)
 */
export interface AuthConfig extends Omit<CoreAuthConfig, "raw"> {}

/**
 * The variables the integration reads: `hono/adapter`'s `env(c)`, so
 * `process.env` on Node.js, Bun and Deno, and the bindings (`c.env`) on
 * Cloudflare Workers.
 *
 * @see [@hono/auth-js](https://github.com/honojs/middleware/tree/main/packages/auth-js) (`AuthEnv`)
 */
export type AuthEnv = {
  AUTH_URL?: string
  AUTH_SECRET?: string
  AUTH_REDIRECT_PROXY_URL?: string
  [key: string]: string | undefined
}

/** The runtime's variables for `c`. */
export function authEnv(c: Context): AuthEnv {
  return env(c) as AuthEnv
}

/**
 * The configuration `initAuthConfig` set for `c`, with the environment's
 * defaults (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`,
 * `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`) and the session capture that
 * gives `authUser` its `token` and `user`.
 */
export function resolvedConfig(c: Context): CoreAuthConfig {
  const config = c.get("authConfig") as AuthConfig | undefined
  if (!config) {
    throw new Error('No auth configuration: app.use("*", initAuthConfig(...)) must run first')
  }
  return withSessionCapture(setEnvDefaults(authEnv(c), config))
}

const mounted = new WeakMap<CoreAuthConfig, Map<string, CoreAuthConfig>>()

/**
 * `config` answering under the path `authHandler()` is registered at, when the
 * configuration does not say where (no `basePath`, no path in `AUTH_URL`):
 * `app.use("/api/auth/*", authHandler())` serves `/api/auth/signin`, as with
 * `@hono/auth-js`. The path is the registered pattern, never the request's,
 * so there are only as many as the app has routes.
 */
export function atMountPath(config: CoreAuthConfig, c: Context): CoreAuthConfig {
  const mountPath = staticPrefix(routePath(c))
  if (config.basePath || !mountPath || mountPath === "/auth") return config
  let byPath = mounted.get(config)
  if (!byPath) mounted.set(config, (byPath = new Map()))
  let derived = byPath.get(mountPath)
  // A copy that shares the app's once-per-configuration warnings: said once, not once per path.
  if (!derived) byPath.set(mountPath, (derived = deriveConfig(config, { basePath: mountPath })))
  return derived
}

/** `/api/auth/*` -> `/api/auth`; `""` for `*`, `/*` and patterns with parameters. */
function staticPrefix(pattern: string): string {
  const prefix = pattern.replace(/\/?\*$/, "").replace(/\/+$/, "")
  return /[:*{}()?]/.test(prefix) ? "" : prefix
}

/** Where the actions are served: `basePath`, default `/auth`, no trailing slash. */
export function basePathOf(config: Pick<CoreAuthConfig, "basePath">): string {
  return (config.basePath ?? "/auth").replace(/\/+$/, "")
}
