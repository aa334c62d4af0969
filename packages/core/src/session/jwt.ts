/**
 * JWT sessions: the whole session is an encrypted token in the session cookie.
 *
 * A plain session check does one decrypt and no encrypt: the cookie is re-issued
 * only when the `jwt` callback changed the token, on `update`, or once
 * `updateAge` has passed since it was issued (sliding expiry, as with database
 * sessions).
 * @module
 */
import type { RequestContext } from "../context.js"
import { JWTSessionError } from "../errors.js"
import { chunkedCookies, clearChunkedCookies, readChunkedCookie } from "../http/cookies.js"
import type { JWT } from "../jwt.js"
import { defaultCallbacks } from "../config/callbacks.js"
import { fireEvent } from "../lib/events.js"
import type { Session } from "../types.js"
import type { SessionStrategyHandler } from "./index.js"

async function decodeSessionCookie(ctx: RequestContext): Promise<JWT | null | undefined> {
  const { sessionToken } = ctx.cookieOptions
  const value = readChunkedCookie(ctx.request.cookies, sessionToken.name)
  if (!value) return undefined
  try {
    return await ctx.config.jwt.decode({
      token: value,
      secret: ctx.config.secrets,
      salt: sessionToken.name,
    })
  } catch (error) {
    ctx.config.logger.error(
      new JWTSessionError("The session cookie could not be decoded", { cause: { err: error } }),
    )
    return null
  }
}

async function writeToken(ctx: RequestContext, token: JWT): Promise<number> {
  const { config } = ctx
  const { sessionToken } = ctx.cookieOptions
  const { iat, exp, jti, ...claims } = token
  const encoded = await config.jwt.encode({
    token: claims,
    secret: config.secrets,
    salt: sessionToken.name,
    maxAge: config.jwt.maxAge,
  })
  ctx.cookies.push(...chunkedCookies(sessionToken, encoded, ctx.request.cookies, config.jwt.maxAge))
  return Math.floor(Date.now() / 1000) + config.jwt.maxAge
}

function clear(ctx: RequestContext): void {
  ctx.cookies.push(...clearChunkedCookies(ctx.cookieOptions.sessionToken, ctx.request.cookies))
}

export const jwtSessionStrategy: SessionStrategyHandler = {
  async read(ctx, update) {
    const token = await decodeSessionCookie(ctx)
    if (token === undefined) return null
    if (token === null) {
      clear(ctx)
      return null
    }
    const { config } = ctx
    try {
      // A callback may change the token in place or return a copy: compare contents,
      // not identity, so a copy with the same claims does not re-issue the cookie.
      // The default callback returns the token untouched and needs no comparison.
      const before =
        update || config.callbacks.jwt === defaultCallbacks.jwt ? undefined : JSON.stringify(token)
      const next = update
        ? await config.callbacks.jwt({ token, trigger: "update", session: update.data } as any)
        : await config.callbacks.jwt({ token } as any)
      if (!next) {
        clear(ctx)
        return null
      }
      const now = Math.floor(Date.now() / 1000)
      const stale = now - (token.iat ?? 0) >= config.session.updateAge
      const changed = before !== undefined && JSON.stringify(next) !== before
      const exp = update || changed || stale ? await writeToken(ctx, next) : (token.exp ?? now)
      const session: Session = {
        user: { name: next.name, email: next.email, image: next.picture },
        expires: new Date(exp * 1000).toISOString(),
      }
      const result = await config.callbacks.session({
        session,
        token: next,
        ...(update ? { newSession: update.data, trigger: "update" as const } : {}),
      } as any)
      await fireEvent(ctx, "session", { session: result, token: next })
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
    await writeToken(ctx, token)
  },

  async destroy(ctx) {
    const token = await decodeSessionCookie(ctx)
    clear(ctx)
    await fireEvent(ctx, "signOut", { token: token ?? null })
  },

  async currentUserId(ctx) {
    const token = await decodeSessionCookie(ctx)
    return token?.sub ?? null
  },
}
