/**
 * The configuration `Auth()` and `getSession` are called with. Core validates
 * a configuration once per object and caches it by identity, so everything
 * here is derived at most once per configuration object and reused: nothing
 * builds a fresh object per request.
 * @module
 */
import { setEnvDefaults, type AuthConfig } from "@tessera/core"

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
 * A middleware mounted at a static path answers there and nowhere else, so a
 * handful of base paths per configuration is all an app can have. Past this
 * many, the paths come from a parameter in the mount path (`/:tenant/auth`),
 * which only an explicit `basePath` can serve; refusing to learn more keeps a
 * client from growing this cache with made-up paths.
 */
const MAX_MOUNTS = 8

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
  // as the client likes: one path for all spellings, or a client's spellings would use up
  // MAX_MOUNTS and leave the real mount to the app's 404. `/API/auth/...` then goes on to the app.
  const mountPath = caseSensitive ? requestMountPath : requestMountPath.toLowerCase()
  if (config.basePath || !mountPath || mountPath === "/auth") return config
  let byPath = mounted.get(config)
  if (!byPath) mounted.set(config, (byPath = new Map()))
  let derived = byPath.get(mountPath)
  if (!derived) {
    if (byPath.size >= MAX_MOUNTS) return config
    derived = { ...config, basePath: mountPath }
    byPath.set(mountPath, derived)
  }
  return derived
}

/** Where the actions are served: `basePath`, default `/auth`, no trailing slash. */
export function basePathOf(config: Pick<AuthConfig, "basePath">): string {
  return (config.basePath ?? "/auth").replace(/\/+$/, "")
}
