/**
 * The configuration `Auth()` and `getSession` are called with. Core validates
 * a configuration once per object and caches it by identity, so everything
 * here is derived at most once per configuration object and reused: nothing
 * builds a fresh object per request.
 * @module
 */
import { deriveConfig, setEnvDefaults, type AuthConfig } from "@tessera/core"

/**
 * The configuration `ExpressAuth` and `getSession` accept: core's, without `raw`.
 *
 * @see [Auth.js: @auth/express](https://authjs.dev/reference/express)
 */
export type ExpressAuthConfig = Omit<AuthConfig, "raw">

/**
 * `config` with the defaults from `process.env` (`AUTH_SECRET`, `AUTH_URL`,
 * `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`). The same object
 * comes back for as long as those variables do not change.
 */
export function withEnv(config: ExpressAuthConfig): AuthConfig {
  return setEnvDefaults(process.env, config)
}

/**
 * How many mount paths are kept per configuration. A static mount is one path
 * (or a few, for an array of paths); a mount path with a parameter
 * (`/:tenant/auth`, or a router mounted at `/:tenant`) is one per value, and a
 * client can make up values. So the paths are kept least recently used first
 * out: a made-up path costs a cache entry, never a real path its routes (a
 * cap that stopped learning let a client who came first turn the routes off
 * for every path learnt after it).
 */
const MAX_MOUNTS = 32

const mounted = new WeakMap<AuthConfig, Map<string, AuthConfig>>()

/**
 * `config` answering under `mountPath`, the path the middleware is mounted at,
 * when the configuration does not say where (no `basePath`, no path in
 * `AUTH_URL`): mounting at `/api/auth` then serves `/api/auth/signin` with no
 * more setup, as with Auth.js. An explicit `basePath` always wins. Unless the app
 * routes case-sensitively, the path is learnt in lower case: a mount path with
 * capitals (`/Auth`) needs `basePath`.
 */
export function atMountPath(
  config: AuthConfig,
  requestMountPath: string,
  caseSensitive: boolean,
): AuthConfig {
  // Routing that ignores case (Express's default) runs the middleware for `/API/auth` too, spelt
  // as the client likes: one path for all spellings, or a client's spellings would crowd the
  // real mount out of the cache. `/API/auth/...` then goes on to the app.
  const mountPath = caseSensitive ? requestMountPath : requestMountPath.toLowerCase()
  if (config.basePath || !mountPath || mountPath === "/auth") return config
  let byPath = mounted.get(config)
  if (!byPath) mounted.set(config, (byPath = new Map()))
  let derived = byPath.get(mountPath)
  if (derived) {
    // Most recently used last: a Map iterates in insertion order.
    byPath.delete(mountPath)
  } else {
    if (byPath.size >= MAX_MOUNTS) byPath.delete(byPath.keys().next().value!)
    derived = derive(config, mountPath)
  }
  byPath.set(mountPath, derived)
  return derived
}

/**
 * `config` served at `basePath`: a copy that core treats as the app's configuration for the
 * warnings it says once per configuration, so the app's logger hears each once, whichever
 * path (or `getSession`, with the app's own object) shows it first.
 */
function derive(config: AuthConfig, basePath: string): AuthConfig {
  return deriveConfig(config, { basePath })
}

/** Where the actions are served: `basePath`, default `/auth`, no trailing slash. */
export function basePathOf(config: Pick<AuthConfig, "basePath">): string {
  return (config.basePath ?? "/auth").replace(/\/+$/, "")
}
