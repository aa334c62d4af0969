/**
 * The sign-in waiting for its second factor: what the first factor proved,
 * kept in an encrypted cookie (the `twoFactor` cookie: `__Host-` on https,
 * HttpOnly, a few minutes) until the code arrives. It is not a session:
 * nothing reads it but the two-factor step, and `session` stays `null`.
 *
 * It holds what finishing the sign-in needs (the user, the account and
 * profile for the `jwt` callback, whether the user is new, where to go), is
 * bound to the first factor's user (the code is checked against that user's
 * factor only), and is single use: finishing records its `jti`, so a copy
 * replayed later is refused even with another valid code.
 *
 * Where sessions have records, the wait has one too (`provider:
 * "two-factor:<provider id>"`, never listed, no events): ending the user's
 * sessions (sign out everywhere, `revokeUserSessions`, an e-mail claim
 * released) deletes it with them, as does the provider's back-channel logout
 * of the provider session it came from, and the
 * step cannot finish without it. Otherwise whoever stood at the code step in
 * another browser, with the password, would keep that step through the owner's
 * "sign out everywhere" and finish it with the next code they get hold of.
 * @module
 */
import type { RequestContext } from "../context.js"
import { TwoFactorExpired } from "../errors.js"
import { chunkedCookies, clearChunkedCookies, readChunkedCookie } from "../http/cookies.js"
import { decrypt, encrypt } from "../jwt/codec.js"
import { callAdapter } from "../lib/adapter.js"
import { sha256Hex } from "../lib/crypto.js"
import { newRecord, pendingSignInProvider, storeRecord } from "../session/records.js"
import type { Account, Profile, User } from "../types.js"

/** What the first factor established. */
export interface PendingSignIn {
  user: User & { id: string }
  account: Account | null
  profile?: Profile
  isNewUser: boolean
  callbackUrl: string
}

export interface PendingClaims extends PendingSignIn {
  sub: string
  jti: string
  exp: number
  /** The id of the wait's record, when sessions have records. */
  rid?: string
}

/** Starts the wait: its record (when sessions have them) and the cookie, replacing any earlier one. */
export async function startPending(ctx: RequestContext, pending: PendingSignIn): Promise<void> {
  const { twoFactor } = ctx.cookieOptions
  const maxAge = ctx.config.twoFactor!.maxAge
  const rid = await startRecord(ctx, pending, new Date(Date.now() + maxAge * 1000))
  const value = await encrypt(
    ctx.config.keys,
    twoFactor.name,
    { ...json(pending), sub: pending.user.id, ...(rid ? { rid } : {}) },
    maxAge,
  )
  ctx.cookies.push(...chunkedCookies(twoFactor, value, ctx.request.cookies, maxAge))
}

/** The wait's record, where sessions have records and the adapter can store one by itself. */
async function startRecord(
  ctx: RequestContext,
  pending: PendingSignIn,
  expires: Date,
): Promise<string | undefined> {
  const { config } = ctx
  if (!config.sessionRecords || typeof config.adapter?.createSessionRecord !== "function")
    return undefined
  const record = newRecord(ctx, pending.user.id, pending.account, expires)
  const provider = pendingSignInProvider(record.provider)
  const stored = await storeRecord(config, { ...record, provider }, pending.account)
  return stored ? record.id : undefined
}

/**
 * Ends the wait's record; `false` when it was already gone: the user's
 * sessions were ended meanwhile (or the step finished in another request).
 */
async function endRecord(ctx: RequestContext, pending: PendingClaims): Promise<boolean> {
  if (!pending.rid || !ctx.config.sessionRecords) return true
  const ended = await callAdapter(ctx.config, "deleteSessionRecords", {
    id: pending.rid,
    userId: pending.sub,
  })
  return ended.length > 0
}

/** Dates and the like as JSON has them: the claims must survive the round trip unchanged. */
function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

/** The pending sign-in of this browser, if its cookie is genuine and current (read once per request). */
export function readPending(ctx: RequestContext): Promise<PendingClaims | undefined> {
  return (ctx.pendingSecondFactor ??= decode(ctx))
}

async function decode(ctx: RequestContext): Promise<PendingClaims | undefined> {
  const { twoFactor } = ctx.cookieOptions
  const value = readChunkedCookie(ctx.request.cookies, twoFactor.name)
  if (!value) return undefined
  try {
    const claims = (await decrypt(ctx.config.keys, twoFactor.name, value)) as Partial<PendingClaims>
    const { sub, jti, exp, user } = claims
    if (typeof sub !== "string" || typeof jti !== "string" || typeof exp !== "number")
      return undefined
    // Exact lifetime: no clock tolerance.
    if (exp * 1000 <= Date.now() || user?.id !== sub) return undefined
    return claims as PendingClaims
  } catch {
    return undefined
  }
}

/** The pending sign-in, or `TwoFactorExpired` (the user starts again). */
export async function requirePending(ctx: RequestContext): Promise<PendingClaims> {
  const pending = await readPending(ctx)
  if (!pending)
    throw new TwoFactorExpired("No sign-in is waiting for a second factor, or it expired")
  return pending
}

/** Clears the cookie (and its chunks). */
export function clearPending(ctx: RequestContext): void {
  ctx.cookies.push(...clearChunkedCookies(ctx.cookieOptions.twoFactor, ctx.request.cookies))
}

/** Gives up the wait (sign-out in its browser): its record and its cookie. */
export async function abandonPending(ctx: RequestContext): Promise<void> {
  const pending = await readPending(ctx)
  if (pending) await endRecord(ctx, pending)
  clearPending(ctx)
}

/**
 * Marks the pending sign-in used, once: through the adapter's verification
 * tokens (a duplicate is refused), so of two uses of one cookie only the first
 * finishes; and ends its record, refusing a wait whose record the user's
 * sessions took with them.
 */
export async function consumePending(ctx: RequestContext, pending: PendingClaims): Promise<void> {
  if (!(await endRecord(ctx, pending))) {
    throw new TwoFactorExpired("The user's sessions were ended while this sign-in waited")
  }
  try {
    await callAdapter(ctx.config, "createVerificationToken", {
      identifier: "two-factor-used",
      token: await sha256Hex(pending.jti),
      expires: new Date(pending.exp * 1000),
    })
  } catch (error) {
    throw new TwoFactorExpired("This sign-in has already been completed", { cause: { err: error } })
  }
}
