/**
 * Keeping users signed in across a move from Auth.js v5: a request with no
 * Tessera session cookie but an Auth.js one (`authjs.session-token`, or its
 * `__Secure-` form on https, chunked or not) has it adopted before the session
 * is read.
 *
 * - JWT sessions: the token is decrypted with Auth.js's key derivation (the
 *   same secrets), and re-issued as a Tessera token with the expiry it had
 *   (and, with session records, a new record: the session can be listed and
 *   revoked from then on).
 * - Database sessions: the cookie holds the raw session token, which
 *   `tessera migrate --from authjs` stored hashed; it moves to the Tessera
 *   cookie as is, and the session strategy looks it up as usual.
 *
 * Either way the Auth.js cookie is expired. A cookie that does not decode is
 * dropped and logged at debug. On by default for the 0.x releases;
 * `adoptAuthjsSessions: false` turns it off (see docs/migrating-from-authjs.md).
 * @module
 */
import type { RequestContext } from "../context.js"
import { lazy } from "../flows/lazy.js"
import { readChunkedCookie } from "../http/cookies.js"
import type { CookieOption } from "../types.js"

/** The adoption's steps (`authjs-adoption.ts`), loaded when an Auth.js cookie first shows up. */
const adoption = lazy(() => import("./authjs-adoption.js"))

/**
 * The Auth.js session cookie of this request, if there is one and no Tessera one. Only the name
 * Auth.js used at this scheme: `__Secure-authjs.session-token` on https, where the plain name
 * may have been planted over plain http by anyone on the browser's network (an attacker's own
 * old Auth.js session, signing the victim in to the attacker's account).
 */
function legacyCookie(ctx: RequestContext): { option: CookieOption; value: string } | undefined {
  const { cookies } = ctx.request
  const current = ctx.cookieOptions.sessionToken
  if (readChunkedCookie(cookies, current.name) !== undefined) return undefined
  const { secure } = current.options
  const name = secure ? "__Secure-authjs.session-token" : "authjs.session-token"
  const value = readChunkedCookie(cookies, name)
  if (value === undefined) return undefined
  return { option: { name, options: { ...current.options, secure: !!secure } }, value }
}

/**
 * True when {@link adoptAuthjsSession} has a cookie to adopt: the handler asks before its
 * policies run, so that a request without one (nearly all) goes on without a promise.
 */
export function hasAuthjsSessionToAdopt(ctx: RequestContext): boolean {
  return ctx.config.source.adoptAuthjsSessions !== false && legacyCookie(ctx) !== undefined
}

/**
 * Moves an Auth.js session cookie to Tessera's, for the session read of this request. Returns
 * nothing (no promise to await) when there is none, as on almost every request: the session
 * check is the hot path.
 */
export function adoptAuthjsSession(ctx: RequestContext): Promise<void> | undefined {
  if (ctx.config.source.adoptAuthjsSessions === false) return undefined
  const legacy = legacyCookie(ctx)
  return legacy && adoption().then(({ adopt }) => adopt(ctx, legacy))
}
