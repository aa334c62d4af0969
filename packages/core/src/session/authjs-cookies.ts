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
import { JWTSessionError } from "../errors.js"
import { chunkedCookies, clearChunkedCookies, readChunkedCookie } from "../http/cookies.js"
import type { JWT } from "../jwt.js"
import type { CookieOption } from "../types.js"
import { adoptedSessionClaims } from "./jwt.js"

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

async function decodeLegacy(ctx: RequestContext, value: string, salt: string): Promise<JWT> {
  const { config } = ctx
  // An app with its own codec made its Auth.js tokens with it too.
  if (config.source.jwt?.decode) {
    const token = await config.jwt.decode({ token: value, secret: config.secrets, salt })
    if (!token) throw new TypeError("The custom decode returned nothing")
    return token
  }
  // Loaded only when an Auth.js cookie shows up: most requests never need it (cold start).
  const { decodeAuthjsToken } = await import("../jwt/authjs.js")
  return decodeAuthjsToken(value, config.secrets, salt)
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
  return legacy && adopt(ctx, legacy)
}

async function adopt(
  ctx: RequestContext,
  legacy: { option: CookieOption; value: string },
): Promise<void> {
  const { config, request } = ctx
  const current = ctx.cookieOptions.sessionToken
  ctx.cookies.push(...clearChunkedCookies(legacy.option, request.cookies))

  let value = legacy.value
  let maxAge = config.session.maxAge
  if (config.session.strategy === "jwt") {
    let token: JWT
    try {
      token = await decodeLegacy(ctx, legacy.value, legacy.option.name)
    } catch (error) {
      const failure = new JWTSessionError(
        `The Auth.js session cookie could not be decoded (${error instanceof Error ? error.name : "Error"})`,
      )
      config.logger.debug(`${failure.type}: ${failure.message}`, {
        type: failure.type,
        error: failure,
      })
      return
    }
    const now = Math.floor(Date.now() / 1000)
    const { iat, exp, jti, sid: _sid, revalidated_at: _checked, ...claims } = token
    maxAge = Math.max(0, Math.min(config.jwt.maxAge, (exp ?? now + maxAge) - now))
    // With session records, the adopted session gets one: listed, revocable, and accepted.
    const record = config.sessionRecords
      ? await adoptedSessionClaims(ctx, claims.sub, now + maxAge)
      : {}
    // The sign-in time carries over, so `absoluteMaxAge` counts from the Auth.js sign-in.
    // Auth.js renews `iat` with every session check: it says when the cookie was last
    // used, not when its owner signed in, so the session is never a recent sign-in
    // (`adopted`, read by `session/recent-sign-in.ts`) until they sign in again.
    value = await config.jwt.encode({
      token: {
        ...claims,
        auth_time: typeof claims.auth_time === "number" ? claims.auth_time : iat,
        adopted: true,
        ...record,
      },
      secret: config.secrets,
      salt: current.name,
      maxAge,
    })
  }
  // The session strategy reads this request's cookies: it finds the adopted one there.
  request.cookies[current.name] = value
  ctx.cookies.push(...chunkedCookies(current, value, request.cookies, maxAge))
  config.logger.debug("session: adopted an Auth.js session cookie", { from: legacy.option.name })
}
