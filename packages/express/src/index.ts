/**
 * Tessera for Express: `ExpressAuth` answers the auth routes (`/auth/signin`,
 * `/auth/callback/<provider>`, `/auth/session`, ...) and `getSession` reads the
 * session in your own routes. The public surface mirrors `@auth/express`.
 *
 * @example
 * ```ts
 * import express from "express"
 * import { ExpressAuth, getSession } from "@tessera/express"
 * import Credentials from "@tessera/core/providers/credentials"
 *
 * const authConfig = { providers: [Credentials({ ... })] } // AUTH_SECRET from the environment
 * const app = express()
 * app.set("trust proxy", 1) // behind one proxy: believe its X-Forwarded-Proto/-Host
 * app.use("/auth", ExpressAuth(authConfig))
 * app.get("/me", async (req, res) => {
 *   const session = await getSession(req, authConfig)
 *   if (!session) return res.status(401).end()
 *   res.json(session.user)
 * })
 * ```
 * @module
 */
import type { NextFunction, Request, RequestHandler, Response } from "express"
import { Auth, getSession as readSession, isAuthAction, withClientAddress } from "@tessera/core"
import type { Session } from "@tessera/core/types"
import { BodyAborted, requestBody } from "./body.js"
import { atMountPath, basePathOf, withEnv, type ExpressAuthConfig } from "./config.js"
import { mountPathOf } from "./mount.js"
import { sendResponse, setCookies } from "./response.js"
import { pathAndQuery, requestHeaders, requestUrl } from "./url.js"

/**
 * The middleware that answers the auth routes. Mount it where the routes live:
 * `app.use("/auth", ExpressAuth(config))` works on Express 4 and 5 (so do
 * `"/auth/*"` on Express 4 and `"/auth/*splat"` on Express 5). The routes are
 * served under `basePath` when the configuration sets one (or `AUTH_URL` has a
 * path), otherwise under the mount path, `/auth` at the root. Requests that
 * are not an auth action (`/auth/anything-else`) go on to `next()`.
 *
 * No body parser is needed, and one in front does no harm: the body is read
 * from the stream, or encoded back from `req.body` when a parser consumed it.
 *
 * Keep one configuration object for the app and pass the same one to
 * {@link getSession}: it is validated once, on first use.
 *
 * @param config The Auth.js-style configuration (`providers`, `secret`, `callbacks`, ...).
 *   Missing settings come from `process.env`: `AUTH_SECRET`, `AUTH_URL`,
 *   `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`.
 * @example
 * ```ts
 * app.use("/auth", ExpressAuth({ providers: [GitHub] }))
 * ```
 *
 * @see [Auth.js: @auth/express](https://authjs.dev/reference/express) (`ExpressAuth`)
 */
export function ExpressAuth(config: ExpressAuthConfig): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    handle(config, req, res, next).catch(next)
  }
}

async function handle(
  config: ExpressAuthConfig,
  req: Request,
  res: Response,
  next: NextFunction,
): Promise<void> {
  const mountPath = mountPathOf(req)
  if (mountPath === undefined) return next()
  const resolved = atMountPath(withEnv(config), mountPath, !!req.app.get("case sensitive routing"))
  const pathname = pathAndQuery(req.originalUrl).split("?")[0]!
  if (!isAuthRoute(pathname, basePathOf(resolved))) return next()
  const url = requestUrl(req, process.env.AUTH_URL)
  if (!url) {
    res.status(400).json({ error: "InvalidRequest", message: "Missing or malformed host" })
    return
  }
  const headers = requestHeaders(req, url)
  if (FETCH_FORBIDDEN_METHODS.has(req.method.toUpperCase())) {
    // No `Request` can carry these: core is asked with a method it answers the same way (one its
    // route table does not list), so the status and `Allow` are the route table's.
    headers.delete("content-length")
    headers.delete("transfer-encoding")
    const answer = await Auth(new Request(url, { method: STAND_IN_METHOD, headers }), resolved)
    await sendResponse(await forMethod(answer, req.method), res)
    return
  }
  let body: Awaited<ReturnType<typeof requestBody>>
  try {
    body = await requestBody(req)
  } catch (error) {
    if (!(error instanceof BodyAborted)) throw error
    // A 400 if the connection can still carry one; either way nothing for the app's error handler.
    if (!req.socket.destroyed)
      res.status(400).json({ error: "InvalidRequest", message: error.message })
    return
  }
  // The body is now whole bytes, possibly encoded back from req.body: the original framing no longer applies.
  headers.delete("content-length")
  headers.delete("transfer-encoding")
  const request = new Request(url, { method: req.method, headers, body })
  // `req.ip`: the socket's peer, or with `trust proxy` what Express makes of X-Forwarded-For.
  // Keys the per-IP limits only with `rateLimit: { clientAddress: true }`.
  await sendResponse(
    await Auth(
      withClientAddress(request, () => req.ip),
      resolved,
    ),
    res,
  )
}

/** Methods the Fetch API refuses to build a `Request` with (TRACE would otherwise be a 500). */
const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"])

/** A method no route answers, which a `Request` can carry: core's answer stands for theirs. */
const STAND_IN_METHOD = "PUT"

/** Core's answer to the stand-in, naming the method the client sent. */
async function forMethod(
  answer: globalThis.Response,
  method: string,
): Promise<globalThis.Response> {
  if (answer.status !== 405) return answer
  const body = (await answer.json()) as { error?: string }
  const headers = new Headers(answer.headers)
  headers.delete("content-length")
  return globalThis.Response.json(
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
 * What {@link getSession} resolves to, as in `@auth/express`.
 *
 * @see [Auth.js: @auth/express](https://authjs.dev/reference/express) (`GetSessionResult`)
 */
export type GetSessionResult = Promise<Session | null>

/**
 * The session of `req` (after your `jwt` and `session` callbacks), or `null`
 * when nobody is signed in. Reads the session cookie directly, with no HTTP
 * round trip; a refreshed session cookie (or, for an invalid session, expired
 * ones) is set on the response, so call it before the response is sent.
 *
 * @param req The Express request.
 * @param config The same configuration object given to {@link ExpressAuth}.
 * @example
 * ```ts
 * app.get("/profile", async (req, res) => {
 *   const session = await getSession(req, authConfig)
 *   if (!session?.user) return res.redirect("/auth/signin")
 *   res.render("profile", { user: session.user })
 * })
 * ```
 *
 * @see [Auth.js: @auth/express](https://authjs.dev/reference/express) (`getSession`)
 */
export async function getSession(req: Request, config: ExpressAuthConfig): GetSessionResult {
  const url = requestUrl(req, process.env.AUTH_URL)
  // A request with no usable host has no session on it to read.
  if (!url) return null
  const { session, cookies } = await readSession(
    { url, cookies: req.headers.cookie ?? null, headers: requestHeaders(req, url) },
    withEnv(config),
  )
  setCookies(req.res, cookies)
  return session
}

export type { ExpressAuthConfig } from "./config.js"
export type { AuthConfig } from "@tessera/core"
// As Auth.js re-exports it from each framework package (a proxy, a custom CA for OAuth requests).
export { customFetch } from "@tessera/core"
export type * from "@tessera/core/types"
export * from "@tessera/core/errors"
