/**
 * JWT sessions: the whole session is an encrypted token in the session cookie.
 *
 * A plain session check does one decrypt and no encrypt: the cookie is re-issued
 * only when the `jwt` callback changed the token, on `update`, once `updateAge`
 * has passed since it was issued (sliding expiry, as with database sessions),
 * or when an older secret of a rotation made it (so it moves to the current one).
 *
 * Sliding expiry never goes past `session.absoluteMaxAge` after the sign-in:
 * the token carries the time of the sign-in (`auth_time`), so a copied cookie
 * cannot be kept alive forever by presenting it now and then.
 *
 * A cookie that cannot be decoded (expired, tampered with, made with another
 * secret) is the client's: it is cleared and logged at debug level, and the
 * log never holds the token's claims.
 * @module
 */
import type { RequestContext } from "../context.js"
import { JWTSessionError } from "../errors.js"
import { chunkedCookies, clearChunkedCookies, readChunkedCookie } from "../http/cookies.js"
import type { JWT } from "../jwt.js"
import { defaultCallbacks } from "../config/callbacks.js"
import { fireEvent } from "../lib/events.js"
import { isPromiseLike } from "../lib/promise.js"
import { isCurrentKey } from "../jwt/codec.js"
import type { Session } from "../types.js"
import type { SessionStrategyHandler } from "./index.js"

/** The session cookie's token and its claims; `undefined` without a cookie, `null` for one that does not decode. */
async function decodeSessionCookie(
  ctx: RequestContext,
): Promise<{ value: string; token: JWT } | null | undefined> {
  const { sessionToken } = ctx.cookieOptions
  const value = readChunkedCookie(ctx.request.cookies, sessionToken.name)
  if (!value) return undefined
  try {
    const token = await ctx.config.jwt.decode({
      token: value,
      secret: ctx.config.secrets,
      salt: sessionToken.name,
    })
    return token ? { value, token } : null
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error"
    const failure = new JWTSessionError(`The session cookie could not be decoded (${name})`)
    ctx.config.logger.debug(`${failure.type}: ${failure.message}`, {
      type: failure.type,
      error: failure,
    })
    return null
  }
}

const now = () => Math.floor(Date.now() / 1000)

/** When the sign-in the token stands for happened; tokens from before `auth_time` existed use `iat`. */
function signedInAt(token: JWT): number {
  return typeof token.auth_time === "number" ? token.auth_time : (token.iat ?? now())
}

/**
 * Writes `token` (keeping the sign-in time of `authTime`) with an expiry no
 * later than the absolute lifetime allows; returns that expiry (seconds).
 */
async function writeToken(ctx: RequestContext, token: JWT, authTime: number): Promise<number> {
  const { config } = ctx
  const { sessionToken } = ctx.cookieOptions
  const { iat, exp, jti, ...claims } = token
  const maxAge = Math.min(config.jwt.maxAge, authTime + config.session.absoluteMaxAge - now())
  const encoded = await config.jwt.encode({
    token: { ...claims, auth_time: authTime },
    secret: config.secrets,
    salt: sessionToken.name,
    maxAge,
  })
  ctx.cookies.push(...chunkedCookies(sessionToken, encoded, ctx.request.cookies, maxAge))
  return now() + maxAge
}

/** True when the default codec decoded `value` with an older secret of a rotation. */
async function madeWithOlderSecret(ctx: RequestContext, value: string): Promise<boolean> {
  if (ctx.config.source.jwt?.decode || ctx.config.secrets.length === 1) return false
  return !(await isCurrentKey(ctx.config.keys, ctx.cookieOptions.sessionToken.name, value))
}

function clear(ctx: RequestContext): void {
  ctx.cookies.push(...clearChunkedCookies(ctx.cookieOptions.sessionToken, ctx.request.cookies))
}

export const jwtSessionStrategy: SessionStrategyHandler = {
  async read(ctx, update) {
    const decoded = await decodeSessionCookie(ctx)
    if (decoded === undefined) return null
    if (decoded === null) {
      clear(ctx)
      return null
    }
    const { value, token } = decoded
    const { config } = ctx
    try {
      // A callback may change the token in place or return a copy: compare contents,
      // not identity, so a copy with the same claims does not re-issue the cookie.
      // The default callback returns the token untouched and needs no comparison.
      const before =
        update || config.callbacks.jwt === defaultCallbacks.jwt ? undefined : JSON.stringify(token)
      // What a callback answers synchronously (the defaults do) is not awaited: where a
      // framework tracks every promise (SvelteKit), each await costs a page as much as the decrypt.
      const jwtAnswer = update
        ? config.callbacks.jwt({ token, trigger: "update", session: update.data } as any)
        : config.callbacks.jwt({ token } as any)
      const next = isPromiseLike(jwtAnswer) ? await jwtAnswer : jwtAnswer
      if (!next) {
        clear(ctx)
        return null
      }
      const authTime = signedInAt(token)
      if (now() >= authTime + config.session.absoluteMaxAge) {
        clear(ctx)
        return null
      }
      const stale = now() - (token.iat ?? 0) >= config.session.updateAge
      const changed = before !== undefined && JSON.stringify(next) !== before
      const rotated = config.secrets.length > 1 && (await madeWithOlderSecret(ctx, value))
      const exp =
        update || changed || stale || rotated
          ? await writeToken(ctx, next, authTime)
          : (token.exp ?? now())
      const session: Session = {
        user: { name: next.name, email: next.email, image: next.picture },
        expires: new Date(exp * 1000).toISOString(),
      }
      const sessionAnswer = config.callbacks.session(
        update
          ? { session, token: next, newSession: update.data, trigger: "update" as const }
          : ({ session, token: next } as any),
      )
      const result = isPromiseLike(sessionAnswer) ? await sessionAnswer : sessionAnswer
      if (config.events.session) await fireEvent(ctx, "session", { session: result, token: next })
      return result
    } catch (error) {
      config.logger.error(
        new JWTSessionError("A jwt or session callback failed", { cause: { err: error } }),
      )
      clear(ctx)
      return null
    }
  },

  async create(ctx, { user, account, profile, isNewUser }) {
    const defaults: JWT = {
      name: user.name ?? null,
      email: user.email ?? null,
      picture: user.image ?? null,
      sub: user.id?.toString() ?? crypto.randomUUID(),
    }
    const token = await ctx.config.callbacks.jwt({
      token: defaults,
      user,
      account,
      profile,
      isNewUser,
      trigger: isNewUser ? "signUp" : "signIn",
    })
    if (token === null) {
      clear(ctx)
      return
    }
    await writeToken(ctx, token, now())
  },

  async destroy(ctx) {
    const decoded = await decodeSessionCookie(ctx)
    clear(ctx)
    await fireEvent(ctx, "signOut", { token: decoded?.token ?? null })
  },

  async currentUserId(ctx) {
    const decoded = await decodeSessionCookie(ctx)
    return decoded?.token.sub ?? null
  },
}
