/**
 * Database sessions: the cookie holds a random token (256 bits); the adapter
 * stores only its SHA-256, so a leaked database does not leak live sessions.
 * A check is one `getSessionAndUser` (one indexed join). The expiry slides
 * forward at most once per `updateAge`. With session records (see
 * `records.ts`) the row is the record: created with its id, device and
 * provider, its `lastSeenAt` moved at most once a minute.
 * @module
 */
import type { Adapter } from "../adapters.js"
import type { RequestContext } from "../context.js"
import { SessionTokenError } from "../errors.js"
import {
  chunkedCookies,
  clearChunkedCookies,
  readChunkedCookie,
  sessionCookieMaxAge,
} from "../http/cookies.js"
import { callAdapter } from "../lib/adapter.js"
import { nodePrimitives, sha256Hex } from "../lib/crypto.js"
import { fireEvent } from "../lib/events.js"
import { isPromiseLike } from "../lib/promise.js"
import type { Session } from "../types.js"
import type { SessionStrategyHandler } from "./index.js"
import { LAST_SEEN_INTERVAL, newRecord } from "./records.js"

/**
 * What a session token can look like: printable ASCII without spaces, 16 to 512
 * characters. Anything else in the cookie cannot be ours and costs no query;
 * `create` refuses a custom `generateSessionToken` that makes anything else.
 */
const TOKEN_SHAPE = /^[\x21-\x7e]{16,512}$/

function cookieToken(ctx: RequestContext): string | undefined {
  const value = readChunkedCookie(ctx.request.cookies, ctx.cookieOptions.sessionToken.name)
  return value && TOKEN_SHAPE.test(value) ? value : undefined
}

function clear(ctx: RequestContext): void {
  ctx.cookies.push(...clearChunkedCookies(ctx.cookieOptions.sessionToken, ctx.request.cookies))
}

/** Sets the cookie to expire with the row; also clears chunks a JWT session cookie may have left. */
function setCookie(ctx: RequestContext, token: string, expires: Date): void {
  const maxAge = Math.max(0, Math.floor((expires.valueOf() - Date.now()) / 1000))
  ctx.cookies.push(
    ...chunkedCookies(
      ctx.cookieOptions.sessionToken,
      token,
      ctx.request.cookies,
      sessionCookieMaxAge(ctx.cookieOptions.sessionToken, maxAge),
    ),
  )
}

async function load(ctx: RequestContext) {
  const token = cookieToken(ctx)
  if (!token) {
    if (readChunkedCookie(ctx.request.cookies, ctx.cookieOptions.sessionToken.name) !== undefined)
      clear(ctx)
    return undefined
  }
  // Synchronous where node:crypto is at hand: no await for what takes a microsecond.
  const hashed = nodePrimitives()?.sha256Hex(token) ?? (await sha256Hex(token))
  const found = await callAdapter(ctx.config, "getSessionAndUser", hashed)
  if (!found) {
    clear(ctx)
    return undefined
  }
  if (found.session.expires.valueOf() <= Date.now()) {
    await callAdapter(ctx.config, "deleteSession", hashed)
    clear(ctx)
    return undefined
  }
  return { token, hashed, ...found }
}

/**
 * Deletes the session a sign-in replaces. Adapters written on Prisma's `delete` (Auth.js's
 * among them) throw when no row has the token, as for the cookie of a session that was revoked
 * or purged: nothing to end then, and the sign-in goes on (Auth.js never deletes at sign-in).
 * A failure while the row is still there fails the sign-in, so the old session never outlives
 * the new one unnoticed.
 */
async function endPrevious(config: RequestContext["config"], hashed: string): Promise<void> {
  try {
    await callAdapter(config, "deleteSession", hashed)
  } catch (error) {
    if (await callAdapter(config, "getSessionAndUser", hashed)) throw error
    config.logger.debug("session: the replaced session was not stored (deleteSession threw)", {
      method: "deleteSession",
    })
  }
}

export const databaseSessionStrategy: SessionStrategyHandler = {
  async read(ctx, update) {
    const current = await load(ctx)
    if (!current) return null
    const { config } = ctx
    const { maxAge, updateAge } = config.session
    let expires = current.session.expires
    // The session was last extended at `expires - maxAge`; extend again once updateAge has passed.
    const lastExtended = expires.valueOf() - maxAge * 1000
    const extend = Date.now() - lastExtended >= updateAge * 1000
    // With records, "last seen" moves too, at most once a minute (in the same write).
    const { lastSeenAt } = current.session
    const seen =
      config.sessionRecords &&
      lastSeenAt instanceof Date &&
      Date.now() - lastSeenAt.valueOf() >= LAST_SEEN_INTERVAL * 1000
    if (extend || seen) {
      if (extend) expires = new Date(Date.now() + maxAge * 1000)
      await callAdapter(config, "updateSession", {
        sessionToken: current.hashed,
        ...(extend ? { expires } : {}),
        ...(seen ? { lastSeenAt: new Date() } : {}),
      })
      if (extend) setCookie(ctx, current.token, expires)
    }
    // An app's own cookie `maxAge` is an idle timeout, as in Auth.js (which sets the cookie again
    // on every read): the same token, its cookie's life started again. No write.
    if (!extend && typeof ctx.cookieOptions.sessionToken.options.maxAge === "number") {
      setCookie(ctx, current.token, expires)
    }
    const { user } = current
    // As Auth.js passes it: the adapter's session (its stored, hashed token; `expires` a Date)
    // with the stored user, and the user again as the second parameter.
    const session = { ...current.session, expires, user }
    let result: Session
    try {
      // Awaited only when the callback answers with a promise (the default does not).
      const answer = config.callbacks.session(
        update
          ? {
              session: session as unknown as Session,
              user,
              newSession: update.data,
              trigger: "update" as const,
            }
          : ({ session: session as unknown as Session, user } as any),
      )
      result = isPromiseLike(answer) ? await answer : answer
    } catch (error) {
      // The app's callback failed, not the session: keep the row and the cookie, answer "no session".
      config.logger.error(
        new SessionTokenError("The session callback threw", { cause: { err: error } }),
      )
      return null
    }
    if (config.events.session)
      await fireEvent(ctx, "session", { session: result, token: undefined as any })
    return result
  },

  async create(ctx, { user, account }) {
    const { config } = ctx
    if (!user.id) throw new SessionTokenError("A database session needs a stored user with an id")
    const token = config.session.generateSessionToken()
    if (typeof token !== "string" || !TOKEN_SHAPE.test(token)) {
      throw new SessionTokenError(
        "generateSessionToken must return 16 to 512 printable ASCII characters",
      )
    }
    const expires = new Date(Date.now() + config.session.maxAge * 1000)
    // A sign-in replaces the session the browser had: the old row must not stay
    // usable by whoever else holds its token (session fixation, shared devices).
    const previous = cookieToken(ctx)
    if (previous) await endPrevious(config, await sha256Hex(previous))
    const sessionToken = await sha256Hex(token)
    // With records, the row is the record: its id, when and from where it started.
    const record = config.sessionRecords ? newRecord(ctx, user.id, account, expires) : undefined
    await callAdapter(config, "createSession", {
      ...record,
      sessionToken,
      userId: user.id,
      expires,
    })
    setCookie(ctx, token, expires)
  },

  async destroy(ctx) {
    const token = cookieToken(ctx)
    clear(ctx)
    // `signOut` fires as in Auth.js: only for a browser that sent a session token, with what
    // `deleteSession` returned; never for one that was not signed in.
    if (!token) return
    let session: Awaited<ReturnType<NonNullable<Adapter["deleteSession"]>>>
    try {
      session = await callAdapter(ctx.config, "deleteSession", await sha256Hex(token))
    } catch (error) {
      // The browser forgets the token either way (the cookie is cleared above), so
      // sign-out still succeeds for the user; the failure is logged for the operator, and
      // no event fires for a session that may still be stored (as in Auth.js).
      ctx.config.logger.error(error as Error)
      return
    }
    await fireEvent(ctx, "signOut", { session: session ?? null })
  },

  async currentUserId(ctx) {
    return (await load(ctx))?.user.id ?? null
  },

  async current(ctx) {
    const found = await load(ctx)
    if (!found) return null
    const { session, user } = found
    const provider = session.provider
      ? { id: session.provider, accountId: session.providerAccountId ?? null }
      : undefined
    // A row made without a record (an adapter that keeps none) has no sign-in time; nor has
    // one whose record names no provider: every sign-in Tessera records names one, so that
    // record was made for a session started elsewhere (imported from Auth.js by `tessera
    // migrate`, or from before records were kept), when it was written, not signed in.
    const signedInAt =
      session.createdAt && session.provider ? new Date(session.createdAt).valueOf() : undefined
    return { userId: user.id, sessionId: session.id, provider, signedInAt }
  },
}
