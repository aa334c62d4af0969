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
  /** The URL of the current request (its protocol decides the secure cookie names; behind a trusted proxy, `X-Forwarded-*` in `headers` decide). */
  url: URL | string
  /** Parsed cookies, or the raw `Cookie` header. */
  cookies: Record<string, string> | string | null
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
    typeof input.cookies === "string" || input.cookies === null
      ? parseCookieHeader(input.cookies)
      : input.cookies
  // The URL as Auth() sees it (the canonical origin, or a trusted forwarded one), so both pick
  // the same (secure or plain) cookie names. A host Auth() would refuse is ignored here: a
  // session read builds no URL and has nothing to refuse.
  const given = typeof input.url === "string" ? new URL(input.url) : input.url
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
