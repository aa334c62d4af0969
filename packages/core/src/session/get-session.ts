/**
 * Reads the session from cookies directly: no Request to build, no HTTP round
 * trip. For framework integrations (`locals.auth()` in SvelteKit) and any server
 * code that has the cookies at hand.
 * @module
 */
import type { AuthConfig } from "../config/auth-config.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { resolvedOrThrow } from "../config/resolved.js"
import { createContext, type RequestContext } from "../context.js"
import { parseCookieHeader } from "../http/cookies.js"
import { trustedUrl } from "../config/origin.js"
import type { Cookie, Session } from "../types.js"
import { adoptAuthjsSession } from "./authjs-cookies.js"
import { sessionStrategy } from "./index.js"

/**
 * What `getSession()` needs of the current request.
 *
 * @see [RFC 6265 §5.4, the Cookie header](https://www.rfc-editor.org/rfc/rfc6265.html#section-5.4)
 */
export interface GetSessionInput {
  /**
   * The absolute URL of the current request (its protocol decides the secure cookie names;
   * behind a trusted proxy, `X-Forwarded-*` in `headers` decide). In Express, `req.url` is the
   * path alone: pass `` `${req.protocol}://${req.get("host")}${req.originalUrl}` ``.
   */
  url: URL | string
  /**
   * Parsed cookies, or the raw `Cookie` header; `null` or `undefined` when there is none
   * (`req.headers.cookie` in Express and `node:http`, `c.req.header("cookie")` in Hono).
   */
  cookies: Record<string, string> | string | null | undefined
  headers?: Headers
}

/**
 * The session (after the `jwt` and `session` callbacks) or `null`, and the
 * cookies to set: a refreshed session cookie, or expired ones for a bad session.
 *
 * @param input The request's URL and cookies (parsed, or the raw `Cookie` header), and its headers
 *   behind a trusted proxy.
 * @param config The same configuration object `Auth()` gets.
 * @see [Auth.js: Auth()](https://authjs.dev/reference/core#auth) (the `session` action, without an HTTP round trip)
 */
export async function getSession(
  input: GetSessionInput,
  config: AuthConfig,
): Promise<{ session: Session | null; cookies: Cookie[] }> {
  const ctx = sessionContext(input, await resolvedOrThrow(config))
  const adoption = adoptAuthjsSession(ctx)
  if (adoption) await adoption
  const session = await sessionStrategy(ctx).read(ctx)
  return { session, cookies: ctx.cookies }
}

/** A context for reading the session of `input`, as `Auth()` would see the request. */
export function sessionContext(input: GetSessionInput, config: ResolvedConfig): RequestContext {
  const cookies =
    typeof input.cookies === "string" || input.cookies == null
      ? parseCookieHeader(input.cookies ?? null)
      : input.cookies
  // The URL as Auth() sees it (the canonical origin, or a trusted forwarded one), so both pick
  // the same (secure or plain) cookie names. A host Auth() would refuse is ignored here: a
  // session read builds no URL and has nothing to refuse.
  const given = typeof input.url === "string" ? absoluteUrl(input.url) : input.url
  const trusted = trustedUrl(config.origin, given, input.headers ?? new Headers())
  const url = trusted instanceof URL ? trusted : given
  return createContext(
    config,
    {
      url,
      method: "GET",
      action: "session",
      cookies,
      headers: input.headers ?? new Headers(),
      query: {},
      body: undefined,
    },
    undefined,
  )
}

/** `url` parsed; a path (Express's `req.url`) is refused with what to pass instead. */
function absoluteUrl(url: string): URL {
  try {
    return new URL(url)
  } catch {
    // A path names no origin, and the origin decides the cookie names: never guess it. The
    // message leaves the value out: a query string may carry a token.
    throw new TypeError(
      "getSession needs the request's absolute URL, not a path: in Express pass " +
        // eslint-disable-next-line no-template-curly-in-string -- the Express expression to write
        '`${req.protocol}://${req.get("host")}${req.originalUrl}`',
    )
  }
}
