/**
 * JWT sessions: the whole session is an encrypted token in the session cookie.
 *
 * A plain session check does one decrypt and no encrypt: the cookie is re-issued
 * only when the `jwt` callback changed the token, on `update`, once `updateAge`
 * (or a tenth of `maxAge`, if shorter) has passed since it was issued (sliding
 * expiry: only then, or on `update`, does the expiry move), when an older secret of a
 * rotation made it (so it moves to the current one), or when its session record
 * was consulted.
 *
 * Session records (an adapter that keeps them): the token carries its record's
 * id (`sid`) and when the record was last consulted (`revalidated_at`). Once
 * `session.revalidateAge` has passed, the next check asks the record (one
 * `touchSessionRecord`) and caches the answer in the re-issued cookie, so a
 * revoked or expired session stops working within `revalidateAge` while most
 * checks stay one decrypt.
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
import type { AdapterUser } from "../adapters.js"
import type { RequestContext } from "../context.js"
import { JWTSessionError } from "../errors.js"
import {
  chunkedCookies,
  clearChunkedCookies,
  readChunkedCookie,
  sessionCookieMaxAge,
} from "../http/cookies.js"
import type { JWT } from "../jwt.js"
import { defaultCallbacks } from "../config/callbacks.js"
import { callAdapter } from "../lib/adapter.js"
import { fireEvent } from "../lib/events.js"
import { isPromiseLike } from "../lib/promise.js"
import { isoString } from "../lib/iso-date.js"
import { isCurrentKey } from "../jwt/codec.js"
import type { Account, Session, User } from "../types.js"
import type { SessionStrategyHandler } from "./index.js"
import { lazy } from "../flows/lazy.js"

/** Session records' steps, loaded with the first sign-in of an app that keeps records. */
const records = lazy(() => import("./records.js"))

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

/**
 * `exp` (seconds) as an ISO string, the session's `expires`. A session's `exp` stays the same
 * from one check to the next until its cookie is re-issued, and formatting a date costs about
 * as much as the rest of a cached check: the last answer is kept.
 */
let lastIso: { exp: number; iso: string } | undefined
function isoStringAt(exp: number): string {
  if (lastIso?.exp !== exp) lastIso = { exp, iso: isoString(exp * 1000) }
  return lastIso.iso
}

/** When the sign-in the token stands for happened; tokens from before `auth_time` existed use `iat`. */
function signedInAt(token: JWT): number {
  return typeof token.auth_time === "number" ? token.auth_time : (token.iat ?? now())
}

/**
 * Seconds after its issue from which a read re-issues the token with a later expiry:
 * `updateAge`, but at most a tenth of the token's lifetime. Auth.js slides a JWT session on
 * every read, so an app's short `maxAge` (an hour) is an idle timeout; with only `updateAge`
 * (24 h) such a session would never slide. A tenth keeps that promise to within 90% of
 * `maxAge` while a session check stays a decrypt, with no encrypt, most of the time.
 */
function slideAfter({ config }: RequestContext): number {
  return Math.min(config.session.updateAge, config.jwt.maxAge / 10)
}

/** The expiry a token (re-)issued now gets: `maxAge` on, never past the absolute lifetime. */
function freshExpiry(ctx: RequestContext, authTime: number): number {
  const { config } = ctx
  return now() + Math.min(config.jwt.maxAge, authTime + config.session.absoluteMaxAge - now())
}

/**
 * The session's record, as the token names it: `sid` is the record's id,
 * `null` for a session that has none on purpose (a user the adapter does not
 * store, such as one `authorize` returns with JWT sessions), and
 * `revalidated_at` when the record was last consulted (seconds).
 */
interface Tracking {
  sid: string | null
  revalidatedAt: number
  /** The record's user, when the record was just consulted. */
  userId?: string
}

/**
 * Writes `token` (keeping the sign-in time of `authTime` and the record it
 * points at) expiring at `exp` (seconds); returns `exp`.
 */
async function writeToken(
  ctx: RequestContext,
  token: JWT,
  authTime: number,
  exp: number,
  tracking: Tracking | undefined,
): Promise<number> {
  const { config } = ctx
  const { sessionToken } = ctx.cookieOptions
  const { iat, exp: _exp, jti, ...claims } = token
  const maxAge = Math.max(0, exp - now())
  const encoded = await config.jwt.encode({
    token: {
      ...claims,
      auth_time: authTime,
      ...(tracking ? { sid: tracking.sid, revalidated_at: tracking.revalidatedAt } : {}),
    },
    secret: config.secrets,
    salt: sessionToken.name,
    maxAge,
  })
  ctx.cookies.push(
    ...chunkedCookies(
      sessionToken,
      encoded,
      ctx.request.cookies,
      sessionCookieMaxAge(sessionToken, maxAge),
    ),
  )
  return exp
}

/** True when the default codec decoded `value` with an older secret of a rotation. */
async function madeWithOlderSecret(ctx: RequestContext, value: string): Promise<boolean> {
  if (ctx.config.source.jwt?.decode || ctx.config.secrets.length === 1) return false
  return !(await isCurrentKey(ctx.config.keys, ctx.cookieOptions.sessionToken.name, value))
}

function clear(ctx: RequestContext): void {
  ctx.cookies.push(...clearChunkedCookies(ctx.cookieOptions.sessionToken, ctx.request.cookies))
}

/**
 * Whether the token's session still stands, with session records on: asks the
 * record (moving its `lastSeenAt`, and its expiry to `expires`) when `force`d or
 * once `revalidateAge` has passed since the token last did; otherwise trusts
 * the token's cached answer. A token without `sid` was issued before records
 * were kept: nothing can revoke it, so it is not accepted.
 * Adapter failures propagate: a server fault, not a reason to drop the cookie.
 */
async function revalidate(
  ctx: RequestContext,
  token: JWT,
  force: boolean,
  expires: number,
): Promise<Tracking | "ended"> {
  const { sid, revalidated_at: checked } = token
  if (sid === null) return { sid: null, revalidatedAt: 0 }
  if (typeof sid !== "string") return "ended"
  const revalidatedAt = typeof checked === "number" ? checked : 0
  if (!force && now() - revalidatedAt < ctx.config.session.revalidateAge) {
    return { sid, revalidatedAt }
  }
  const record = await callAdapter(ctx.config, "touchSessionRecord", sid, {
    lastSeenAt: new Date(),
    expires: new Date(expires * 1000),
  })
  return record ? { sid, revalidatedAt: now(), userId: record.userId } : "ended"
}

/**
 * The claims of `next` (what the `jwt` callback returned) with Tessera's own kept from
 * `token` (the one it was given): whether the session came from Auth.js (never a recent
 * sign-in), and the sign-in's provider (`idp`), without which sign-out would skip the
 * provider's logout (`signOut: "provider"`) without a word. A callback that rebuilds the
 * token drops them; one that spreads `update()` data over it could rename them.
 */
function keepOwnClaims(next: JWT, token: JWT): JWT {
  const kept: JWT = token.adopted === true ? { ...next, adopted: true } : next
  return isProviderClaim(token.idp) && next.idp !== token.idp ? { ...kept, idp: token.idp } : kept
}

/** Tessera's `idp` claim (`providerClaim`), not a claim of the app's of the same name. */
function isProviderClaim(value: unknown): value is { provider: string; account: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { provider?: unknown }).provider === "string" &&
    typeof (value as { account?: unknown }).account === "string"
  )
}

/**
 * The sign-in's provider, kept in the token when it signs out at the provider too (RP-initiated
 * logout). Without an adapter to keep the account, the ID Token goes in the (encrypted) token
 * too, as `id_token`: it is the `id_token_hint` the logout request carries.
 */
function providerClaim(ctx: RequestContext, account: Account | null) {
  if (!account) return undefined
  const provider = ctx.config.flows.get(account.provider)?.provider
  if (!provider || provider.type !== "oidc" || provider.signOut !== "provider") return undefined
  const claim = { provider: account.provider, account: account.providerAccountId }
  const idToken = account.id_token
  const kept = typeof ctx.config.adapter?.getAccount === "function"
  return !kept && typeof idToken === "string" ? { ...claim, id_token: idToken } : claim
}

/** The record a sign-in starts, or `null` when the adapter cannot keep it (see `storeRecord`). */
async function startRecord(
  ctx: RequestContext,
  user: User | AdapterUser,
  account: Account | null,
  exp: number,
): Promise<string | null> {
  const { config } = ctx
  if (!user.id) return null
  const { storeRecord, newRecord } = await records()
  const record = newRecord(ctx, user.id, account, new Date(exp * 1000))
  return (await storeRecord(config, record, account)) ? record.id : null
}

/** The token of the session cookie, if it decodes, without consulting anything. */
async function previousSid(ctx: RequestContext): Promise<string | undefined> {
  const decoded = await decodeSessionCookie(ctx)
  const sid = decoded?.token.sid
  return typeof sid === "string" ? sid : undefined
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
    const authTime = signedInAt(token)
    if (now() >= authTime + config.session.absoluteMaxAge) {
      clear(ctx)
      return null
    }
    // The expiry slides (a new one is issued) on update, or once `slideAfter` has passed.
    const slides = !!update || now() - (token.iat ?? 0) >= slideAfter(ctx)
    const exp = slides || typeof token.exp !== "number" ? freshExpiry(ctx, authTime) : token.exp
    let tracking: Tracking | undefined
    let revalidated = false
    if (config.sessionRecords) {
      const verdict = await revalidate(ctx, token, slides, exp)
      if (verdict === "ended") {
        clear(ctx)
        return null
      }
      revalidated = verdict.revalidatedAt !== token.revalidated_at && verdict.sid !== null
      tracking = verdict
    }
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
      if (next === null) {
        clear(ctx)
        return null
      }
      if (!isTokenObject(next)) throw notAToken(next)
      const changed = before !== undefined && JSON.stringify(next) !== before
      // Only a rotation has older secrets: without one, no promise to await.
      const rotated = config.secrets.length > 1 && (await madeWithOlderSecret(ctx, value))
      // The time of the check only needs keeping when checks are spaced out.
      const recheck = revalidated && config.session.revalidateAge > 0
      if (slides || changed || rotated || recheck) {
        // Like the sign-in time, Tessera's claims are Tessera's to keep.
        await writeToken(ctx, keepOwnClaims(next, token), authTime, exp, tracking)
      } else if (typeof ctx.cookieOptions.sessionToken.options.maxAge === "number") {
        // An app's own cookie `maxAge` is an idle timeout, as in Auth.js (which sets the cookie
        // again on every read): the same token, its cookie's life started again. No encrypt.
        const { sessionToken } = ctx.cookieOptions
        const maxAge = sessionCookieMaxAge(sessionToken, Math.max(0, exp - now()))
        ctx.cookies.push(...chunkedCookies(sessionToken, value, ctx.request.cookies, maxAge))
      }
      const session: Session = {
        user: { name: next.name, email: next.email, image: next.picture },
        expires: isoStringAt(exp),
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
        error instanceof JWTSessionError
          ? error
          : new JWTSessionError("A jwt or session callback failed", { cause: { err: error } }),
      )
      clear(ctx)
      return null
    }
  },

  async create(ctx, { user, account, profile, isNewUser }) {
    const { config } = ctx
    const authTime = now()
    const exp = freshExpiry(ctx, authTime)
    const idp = providerClaim(ctx, account)
    const defaults: JWT = {
      name: user.name ?? null,
      email: user.email ?? null,
      picture: user.image ?? null,
      sub: user.id?.toString() ?? crypto.randomUUID(),
      ...(idp ? { idp } : {}),
    }
    const returned = await config.callbacks.jwt({
      token: defaults,
      user,
      account,
      profile,
      isNewUser,
      trigger: isNewUser ? "signUp" : "signIn",
    })
    if (returned === null) {
      clear(ctx)
      return
    }
    if (!isTokenObject(returned)) throw notAToken(returned)
    const token = keepOwnClaims(returned, defaults)
    let tracking: Tracking | undefined
    if (config.sessionRecords) {
      // A sign-in replaces the browser's session: its record must not stay usable
      // by whoever else holds a copy of the old cookie.
      const previous = await previousSid(ctx)
      if (previous) await callAdapter(config, "deleteSessionRecords", { id: previous })
      tracking = { sid: await startRecord(ctx, user, account, exp), revalidatedAt: now() }
    }
    await writeToken(ctx, token, authTime, exp, tracking)
  },

  async destroy(ctx) {
    const decoded = await decodeSessionCookie(ctx)
    clear(ctx)
    const sid = decoded?.token.sid
    if (ctx.config.sessionRecords && typeof sid === "string") {
      try {
        await callAdapter(ctx.config, "deleteSessionRecords", { id: sid })
      } catch (error) {
        // The browser forgets the cookie either way; the record expires on its own.
        ctx.config.logger.error(error as Error)
      }
    }
    // As in Auth.js, only a session that was there ends with `signOut`: not for a browser
    // without a session cookie, or with one that does not decode.
    if (decoded) await fireEvent(ctx, "signOut", { token: decoded.token })
  },

  async current(ctx) {
    const decoded = await decodeSessionCookie(ctx)
    const userId = decoded?.token.sub
    if (!decoded || !userId) return null
    const { token } = decoded
    if (now() >= signedInAt(token) + ctx.config.session.absoluteMaxAge) return null
    const idp = token.idp as
      { provider?: unknown; account?: unknown; id_token?: unknown } | undefined
    const provider =
      idp && typeof idp.provider === "string"
        ? {
            id: idp.provider,
            accountId: typeof idp.account === "string" ? idp.account : null,
            ...(typeof idp.id_token === "string" ? { idToken: idp.id_token } : {}),
          }
        : undefined
    // Only a sign-in time Tessera recorded counts: no guess from `iat` or the clock, nor
    // from an adopted Auth.js cookie's (`authjs-cookies.ts`).
    const signedIn =
      typeof token.auth_time === "number" && token.adopted !== true
        ? token.auth_time * 1000
        : undefined
    if (!ctx.config.sessionRecords) {
      return { userId, sessionId: undefined, provider, signedInAt: signedIn }
    }
    // Not the hot path: always ask the record.
    const verdict = await revalidate(ctx, token, true, token.exp ?? now())
    if (verdict === "ended") return null
    // `sub` is whatever the app's `jwt` callback last returned: one that spreads `update()`
    // data over the token lets the browser rename it. The record says whose session this is,
    // and what acts for the signed-in user (managing sessions, adding a passkey, an account
    // or a second factor) acts only for that user.
    if (verdict.userId !== undefined && verdict.userId !== userId) return null
    return { userId, sessionId: verdict.sid ?? undefined, provider, signedInAt: signedIn }
  },

  async currentUserId(ctx) {
    return (await jwtSessionStrategy.current(ctx))?.userId ?? null
  },
}

/** What a `jwt` callback must answer: the token (an object), or `null` to end the session. */
function isTokenObject(value: unknown): value is JWT {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

/**
 * A `jwt` callback that answered something else, most often `undefined` from a branch that
 * forgot its `return`: said plainly (Auth.js logs only `JWTSessionError`), never with the value,
 * which may hold claims.
 */
function notAToken(value: unknown): JWTSessionError {
  const what = value === undefined ? "undefined" : Array.isArray(value) ? "an array" : typeof value
  return new JWTSessionError(
    `The jwt callback returned ${what}: return the token (changed or not), or null to end the session`,
  )
}
