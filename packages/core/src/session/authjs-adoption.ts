/**
 * The steps of adopting an Auth.js session cookie (see `authjs-cookies.ts`, which
 * finds the cookie): decode it with Auth.js's key derivation (or the app's own
 * codec), re-issue it as a Tessera session, expire the Auth.js one. A module of
 * its own because almost no request has such a cookie: a cold start does not
 * load it.
 * @module
 */
import type { RequestContext } from "../context.js"
import { JWTSessionError } from "../errors.js"
import { chunkedCookies, clearChunkedCookies, sessionCookieMaxAge } from "../http/cookies.js"
import type { JWT } from "../jwt.js"
import type { CookieOption } from "../types.js"
import { adoptedSessionClaims, skipsSecondFactor } from "./authjs-record.js"

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

/** Adopts `legacy` (found by `authjs-cookies.ts`) for this request's session read. */
export async function adopt(
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
    // Unused for longer than a Tessera session may idle (Auth.js renews `iat` on every use):
    // ended, as such a Tessera session would be. Also what keeps an ended one ended: the rows
    // that refuse a copy of an adopted or signed-out cookie live `maxAge`, and `purge` deletes
    // them then, while an Auth.js cookie may have been issued for longer (its own `maxAge`).
    if (typeof iat === "number" && iat + config.jwt.maxAge <= now) {
      config.logger.debug("session: an Auth.js session cookie not adopted (idle past maxAge)", {
        from: legacy.option.name,
      })
      return
    }
    maxAge = Math.max(0, Math.min(config.jwt.maxAge, (exp ?? now + maxAge) - now))
    // With session records, the adopted session gets one: listed, revocable, and accepted.
    // Without records, the second factor is still asked about (the records' steps ask it too).
    const record = config.sessionRecords
      ? await adoptedSessionClaims(ctx, claims.sub, now + maxAge, legacy.value, iat)
      : (await skipsSecondFactor(ctx, claims.sub, typeof iat === "number" ? iat : undefined))
        ? null
        : {}
    if (record === null) {
      // Its session was ended (adopted before, or signed out everywhere), or it skipped the
      // user's second factor: a kept copy must not come back as a session.
      config.logger.debug("session: an Auth.js session cookie not adopted (ended, or no code)", {
        from: legacy.option.name,
      })
      return
    }
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
  ctx.cookies.push(
    ...chunkedCookies(current, value, request.cookies, sessionCookieMaxAge(current, maxAge)),
  )
  config.logger.debug("session: adopted an Auth.js session cookie", { from: legacy.option.name })
}
