/**
 * Tessera for Hono: `initAuthConfig` sets the configuration, `authHandler()`
 * answers the auth routes (`/auth/signin`, `/auth/callback/<provider>`,
 * `/auth/session`, ...), `verifyAuth()` guards your routes and `getAuthUser(c)`
 * reads the session. The public surface mirrors `@hono/auth-js`.
 *
 * @example
 * ```ts
 * import { Hono } from "hono"
 * import { authHandler, initAuthConfig, verifyAuth } from "@tessera/hono"
 * import GitHub from "@tessera/core/providers/github"
 *
 * const authConfig = { providers: [GitHub] } // AUTH_SECRET, AUTH_GITHUB_ID/_SECRET from the environment
 * const app = new Hono()
 * app.use("*", initAuthConfig(() => authConfig))
 * app.use("/auth/*", authHandler())
 * app.use("/api/*", verifyAuth())
 * app.get("/api/protected", (c) => c.json(c.get("authUser").session))
 * ```
 * @module
 */
import type { Context, MiddlewareHandler } from "hono"
import { HTTPException } from "hono/http-exception"
import {
  Auth,
  getSession,
  isAuthAction,
  setEnvDefaults as coreSetEnvDefaults,
  withClientAddress,
} from "@tessera/core"
import type { AdapterUser } from "@tessera/core/adapters"
import type { JWT } from "@tessera/core/jwt"
import type { Session } from "@tessera/core/types"
import { extrasOf } from "./capture.js"
import {
  atMountPath,
  authEnv,
  basePathOf,
  resolvedConfig,
  type AuthConfig,
  type AuthEnv,
} from "./config.js"
import {
  applyCookiesOnce,
  carryCookies,
  carryCookiesOnce,
  privateIfSessionSet,
  setCookieLines,
} from "./cookies.js"
import { authRequest, BodyUnreadable, requestHeaders, requestUrl } from "./request.js"
import { onContext } from "./response.js"

declare module "hono" {
  interface ContextVariableMap {
    /** Set by `verifyAuth()`: who is signed in. */
    authUser: AuthUser
    /** Set by `initAuthConfig()`. */
    authConfig: AuthConfig
  }
}

/**
 * Who is signed in: the session, and the JWT (JWT sessions) or the stored user (database sessions).
 *
 * @see [@hono/auth-js](https://github.com/honojs/middleware/tree/main/packages/auth-js) (`AuthUser`)
 */
export type AuthUser = {
  session: Session
  token?: JWT
  user?: AdapterUser
}

/**
 * Returns the configuration for a request. Return the same object every time: see {@link
 * initAuthConfig}.
 *
 * @see [@hono/auth-js](https://github.com/honojs/middleware/tree/main/packages/auth-js) (`ConfigHandler`)
 */
export type ConfigHandler = (c: Context) => AuthConfig

/**
 * Middleware that makes the configuration available to `authHandler()`,
 * `verifyAuth()` and `getAuthUser()`. Register it first, for every path
 * (`app.use("*", ...)`).
 *
 * The configuration is validated once per object, the first time it is used,
 * so the callback should return the same object on every call: build it once
 * (lazily, if it needs `c.env` on Cloudflare Workers) rather than a new literal
 * per request. Missing settings come from the runtime's environment
 * (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`/`_SECRET`).
 *
 * @param cb Returns the configuration for the request's context.
 * @example
 * ```ts
 * const authConfig: AuthConfig = { providers: [GitHub] }
 * app.use("*", initAuthConfig(() => authConfig))
 * ```
 *
 * @see [@hono/auth-js](https://github.com/honojs/middleware/tree/main/packages/auth-js) (`initAuthConfig`)
 */
export function initAuthConfig(cb: ConfigHandler): MiddlewareHandler {
  return async (c, next) => {
    c.set("authConfig", cb(c))
    await next()
    carryCookies(c)
    privateIfSessionSet(c)
  }
}

/**
 * Middleware that answers the auth routes. Register it where they live,
 * `app.use("/auth/*", authHandler())`: they are served under `basePath` when
 * the configuration sets one (or `AUTH_URL` has a path), otherwise under the
 * registered path (`/api/auth/*` serves `/api/auth/signin`, ...). Requests that
 * are not an auth action (`/auth/anything-else`) go on to `next()`.
 *
 * @param options `clientAddress`: the client's address, for the per-IP rate limits with
 *   `rateLimit: { clientAddress: true }`. Hono's `getConnInfo` is a different import per
 *   runtime, so the app names it: `(c) => getConnInfo(c).remote.address`. Behind a proxy that
 *   is the proxy's address; use `rateLimit.ipHeader` there. Called only when a per-IP limit applies.
 *
 * @example
 * ```ts
 * app.use("/auth/*", authHandler())
 * // Node.js, per-IP limits under the connection's address (rateLimit: { clientAddress: true }):
 * // import { getConnInfo } from "@hono/node-server/conninfo"
 * app.use("/auth/*", authHandler({ clientAddress: (c) => getConnInfo(c).remote.address }))
 * ```
 *
 * @see [@hono/auth-js](https://github.com/honojs/middleware/tree/main/packages/auth-js) (`authHandler`)
 * @see [Hono: ConnInfo helper](https://hono.dev/docs/helpers/conninfo)
 */
export function authHandler(options: AuthHandlerOptions = {}): MiddlewareHandler {
  const { clientAddress } = options
  return async (c, next) => {
    const config = atMountPath(resolvedConfig(c), c)
    const url = requestUrl(c, authEnv(c).AUTH_URL)
    // Without a usable host only the auth routes are refused here; the app's are the app's.
    if (!isAuthRoute((url ?? new URL(c.req.url)).pathname, basePathOf(config))) return next()
    if (!url) return invalidRequest(c, "Missing or malformed host")
    if (FETCH_FORBIDDEN_METHODS.has(c.req.method.toUpperCase())) {
      // No `Request` can carry these: core is asked with a method it answers the same way (one
      // its route table does not list), so the status and `Allow` are the route table's.
      const stand = new Request(url, { method: STAND_IN_METHOD, headers: requestHeaders(c, url) })
      return onContext(c, await forMethod(await Auth(stand, config), c.req.method))
    }
    let request: Request
    try {
      request = await authRequest(c, url)
    } catch (error) {
      if (error instanceof BodyUnreadable) return invalidRequest(c, error.message)
      throw error
    }
    if (clientAddress) withClientAddress(request, () => clientAddress(c))
    return onContext(c, await Auth(request, config))
  }
}

/**
 * Options of {@link authHandler}.
 * @see [Rate limits: proxies and IP addresses](https://github.com/tessera-auth/tessera/blob/main/docs/passwords-and-rate-limits.md#proxies-and-ip-addresses)
 */
export interface AuthHandlerOptions {
  /**
   * The client's address (`getConnInfo(c).remote.address`), handed to core with the request for
   * `rateLimit: { clientAddress: true }`; `undefined` when it cannot tell.
   */
  clientAddress?: (c: Context) => string | undefined
}

/** A 400 as core answers one: the client sent what cannot be served. */
function invalidRequest(c: Context, message: string): Response {
  return c.json({ error: "InvalidRequest", message }, 400, { "Cache-Control": "no-store" })
}

/** Methods the Fetch API refuses to build a `Request` with (TRACE would otherwise be a 500). */
const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"])

/** A method no route answers, which a `Request` can carry: core's answer stands for theirs. */
const STAND_IN_METHOD = "PUT"

/** Core's answer to the stand-in, naming the method the client sent. */
async function forMethod(answer: Response, method: string): Promise<Response> {
  if (answer.status !== 405) return answer
  const body = (await answer.json()) as { error?: string }
  const headers = new Headers(answer.headers)
  headers.delete("content-length")
  return Response.json(
    { error: body.error, message: `${method} is not supported` },
    {
      status: 405,
      headers,
    },
  )
}

/** `<basePath>/<action>[/...]` with a known action: the requests core answers. */
function isAuthRoute(pathname: string, basePath: string): boolean {
  if (!pathname.startsWith(`${basePath}/`)) return false
  return isAuthAction(pathname.slice(basePath.length + 1).split("/")[0] ?? "")
}

/**
 * Middleware that lets only signed-in requests through: without a session it
 * throws an `HTTPException` with a 401 `Unauthorized` response; with one it
 * sets `c.get("authUser")` (`{ session, token?, user? }`) and goes on.
 *
 * @example
 * ```ts
 * app.use("/api/*", verifyAuth())
 * app.get("/api/me", (c) => c.json(c.get("authUser").session.user))
 * ```
 *
 * @see [@hono/auth-js](https://github.com/honojs/middleware/tree/main/packages/auth-js) (`verifyAuth`)
 * @see [RFC 9110 §15.5.2, 401 Unauthorized](https://www.rfc-editor.org/rfc/rfc9110.html#section-15.5.2)
 */
export function verifyAuth(): MiddlewareHandler {
  return async (c, next) => {
    const { authUser, cookies } = await readAuthUser(c)
    if (!authUser) {
      // The 401 replaces whatever `c` had prepared, so it carries the cookies itself
      // (expired ones, when a stale session cookie was sent).
      const res = new Response("Unauthorized", { status: 401 })
      for (const line of cookies) res.headers.append("Set-Cookie", line)
      throw new HTTPException(401, { res })
    }
    c.set("authUser", authUser)
    await next()
    // After the handler, so the cookies reach its response even when it returned a raw `Response`,
    // and never after a cookie that response sets itself (a sign-out of the app's own).
    carryCookiesOnce(c, cookies)
  }
}

/**
 * The signed-in user of `c`, or `null`. Reads the session cookie directly (no
 * HTTP round trip), once per request however often it is called, and sets a
 * refreshed session cookie (or expired ones for an invalid session) on the
 * response.
 *
 * @param c The Hono context; `initAuthConfig` must have run for it.
 * @example
 * ```ts
 * app.get("/", async (c) => {
 *   const authUser = await getAuthUser(c)
 *   return c.text(authUser ? `Hello ${authUser.session.user?.name}` : "Hello stranger")
 * })
 * ```
 *
 * @see [@hono/auth-js](https://github.com/honojs/middleware/tree/main/packages/auth-js) (`getAuthUser`)
 */
export async function getAuthUser(c: Context): Promise<AuthUser | null> {
  const { authUser, cookies } = await readAuthUser(c)
  // Read once the route answered (a middleware after `next()`): never after a cookie that answer
  // sets itself, or a sign-out's expired session cookie would be followed by a live one.
  if (c.finalized) carryCookiesOnce(c, cookies)
  else applyCookiesOnce(c, cookies)
  return authUser
}

const reads = new WeakMap<Context, Promise<{ authUser: AuthUser | null; cookies: string[] }>>()

function readAuthUser(c: Context): Promise<{ authUser: AuthUser | null; cookies: string[] }> {
  let pending = reads.get(c)
  if (!pending) {
    pending = (async () => {
      const url = requestUrl(c, authEnv(c).AUTH_URL)
      // A request with no usable host has no session on it to read.
      if (!url) return { authUser: null, cookies: [] }
      const { session, cookies } = await getSession(
        { url, cookies: c.req.header("cookie") ?? null, headers: requestHeaders(c, url) },
        resolvedConfig(c),
      )
      const authUser = session ? { session, ...extrasOf(session) } : null
      return { authUser, cookies: setCookieLines(cookies) }
    })()
    reads.set(c, pending)
  }
  return pending
}

export { reqWithEnvUrl } from "./request.js"
export type { AuthConfig, AuthEnv } from "./config.js"
export type * from "@tessera/core/types"
export * from "@tessera/core/errors"
/**
 * `@hono/auth-js`'s `setEnvDefaults(env, config)`, for apps that fill their configuration from
 * `c.env` themselves: `AUTH_SECRET` becomes the secret when none is set (as a string, as there),
 * then core's defaults (`AUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_SECRET_1..3`, the providers'
 * `AUTH_<ID>_ID`/`_SECRET`/`_ISSUER`). `authHandler()` applies the environment on its own,
 * without it. No `basePath` is invented: the routes stay where `authHandler()` is registered.
 *
 * @param envObject The environment (`c.env`, or `process.env`).
 * @param config The configuration to fill (in place, as in Auth.js).
 * @returns The filled configuration (a filled copy of a frozen one).
 * @see [@hono/auth-js: setEnvDefaults](https://github.com/honojs/middleware/tree/main/packages/auth-js)
 */
export function setEnvDefaults(envObject: AuthEnv, config: AuthConfig): AuthConfig {
  if (config.secret === undefined && envObject.AUTH_SECRET && Object.isExtensible(config))
    config.secret = envObject.AUTH_SECRET
  return coreSetEnvDefaults(envObject, config)
}
