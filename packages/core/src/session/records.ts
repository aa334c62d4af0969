/**
 * Session records: every sign-in gets one when the adapter keeps them
 * (`config.sessionRecords`), whatever the strategy. With database sessions the
 * record is the session row; with JWT sessions the cookie carries the record's
 * id (`sid`) and the record is consulted at most once per `revalidateAge`.
 * Deleting a record ends its session: that is what revoking is.
 *
 * This module makes new records and ends them (firing `sessionRevoked`); the
 * strategies decide when to consult them.
 * @module
 */
import type { AdapterSessionRecord, SessionRecordFilter } from "../adapters.js"
import type { ResolvedConfig } from "../config/resolve.js"
import type { RequestContext } from "../context.js"
import { MissingAdapter, MissingAdapterMethods } from "../errors.js"
import { callAdapter } from "../lib/adapter.js"
import { decodeBase64url } from "../lib/base64url.js"
import { randomHex } from "../lib/crypto.js"
import { isPlainObject } from "../jwt/jwe.js"
import { fireEvent } from "../lib/events.js"
import { TWO_FACTOR_ID } from "../two-factor/id.js"
import type { Account, SessionRecord, SessionRevokedReason } from "../types.js"
import { ipPrefixOf, userAgentOf } from "./client-info.js"

/** How often a database session's `lastSeenAt` moves forward at most (seconds). */
export const LAST_SEEN_INTERVAL = 60

/**
 * The `provider` of the record of a sign-in through `providerId` waiting for
 * its second factor (two-factor/pending.ts): "two-factor:<provider id>", which
 * no provider id can be (ids have no colon). Not a session, so never listed,
 * counted or announced, but ended with the user's sessions, and with the
 * provider's when it ends them (back-channel logout).
 */
export function pendingSignInProvider(providerId: string | null | undefined): string {
  return providerId ? `${TWO_FACTOR_ID}:${providerId}` : TWO_FACTOR_ID
}

/**
 * The `provider` of a user's mark of the last time all their sessions ended
 * (`createdAt`), kept with JWT sessions while Auth.js cookies are adopted: an
 * Auth.js cookie is no record, so ending the user's records cannot end one
 * that was never adopted (another device's, stolen); adoption refuses those
 * last used before the mark (`adoptionCutoff`). No provider id has a colon.
 * Not a session: never listed, counted or announced.
 */
const AUTHJS_CUTOFF = "tessera:authjs-cutoff"

function isSession(record: AdapterSessionRecord): boolean {
  const provider = record.provider ?? ""
  return (
    provider !== TWO_FACTOR_ID &&
    !provider.startsWith(`${TWO_FACTOR_ID}:`) &&
    provider !== AUTHJS_CUTOFF
  )
}

/** Whether ending all of a user's sessions ends their Auth.js cookies too (AUTHJS_CUTOFF). */
function adoptsAuthjsCookies(config: ResolvedConfig): boolean {
  return config.session.strategy === "jwt" && config.source.adoptAuthjsSessions !== false
}

/**
 * When all of `userId`'s sessions last ended (ms since the epoch), if they did
 * since Auth.js cookies were adopted: an Auth.js cookie last used before then
 * was ended with them.
 */
export async function adoptionCutoff(
  config: ResolvedConfig,
  userId: string,
): Promise<number | undefined> {
  const records = await callAdapter(config, "listSessionRecords", userId)
  const marks = records.filter((record) => record.provider === AUTHJS_CUTOFF)
  return marks.length ? Math.max(...marks.map((mark) => mark.createdAt.valueOf())) : undefined
}

/**
 * Whether an Auth.js cookie last used at `lastUsed` (seconds; unknown: the
 * worst case) ended with its user's sessions, whose last end was `cutoff`.
 */
export function endedByCutoff(cutoff: number | undefined, lastUsed: number | undefined): boolean {
  return cutoff !== undefined && (lastUsed === undefined || lastUsed * 1000 <= cutoff)
}

/**
 * How far another process's clock may be behind this one's when it stamps a
 * record's `createdAt` (ms): a sweep counts a record made that long before it
 * started as made during it.
 */
const CLOCK_SKEW = 5_000

/**
 * Ends the sessions adopted from Auth.js cookies while `userId`'s sessions
 * were being ended (since `startedAt`), after the mark is written. Ending them
 * is two steps (delete the records, then mark), and so is an adoption (check
 * the mark, then create its record): an adoption that checked before the mark
 * and recorded after the delete would outlive the sign-out. One that records
 * after this sweep finds the mark when it checks again (`authjs-record.ts`).
 * Adopted records have no provider; `filter.exceptId` (the session kept) stays.
 */
async function sweepRacingAdoptions(
  config: ResolvedConfig,
  userId: string,
  startedAt: number,
  filter: Pick<SessionRecordFilter, "exceptId">,
): Promise<AdapterSessionRecord[]> {
  const records = await callAdapter(config, "listSessionRecords", userId)
  const swept: AdapterSessionRecord[] = []
  for (const record of records) {
    if (record.provider != null || !isSession(record) || record.id === filter.exceptId) continue
    if (record.createdAt.valueOf() < startedAt - CLOCK_SKEW) continue
    swept.push(...(await callAdapter(config, "deleteSessionRecords", { id: record.id, userId })))
  }
  return swept
}

/**
 * Marks the end of all of `userId`'s sessions, for `adoptionCutoff`. Not for a
 * user the adapter does not store (a credentials user `authorize` owns, with JWT
 * sessions): the adapter holds no record of theirs, so it refuses the mark, and
 * their Auth.js cookies are adopted without a record (`sid: null`) anyway.
 */
async function markCutoff(config: ResolvedConfig, userId: string): Promise<void> {
  if (!(await callAdapter(config, "getUser", userId))) return
  const now = new Date()
  // Kept as long as an Auth.js cookie made just before it could live.
  const expires = new Date(now.valueOf() + config.jwt.maxAge * 1000)
  await callAdapter(config, "createSessionRecord", {
    id: newSessionId(),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expires,
    userAgent: null,
    ipPrefix: null,
    provider: AUTHJS_CUTOFF,
    providerAccountId: null,
    providerSessionId: null,
  })
}

/** A new session id: 128 bits from the CSPRNG, hex. */
export function newSessionId(): string {
  return randomHex(16)
}

/**
 * The claims of an ID Token the sign-in already validated, without checking
 * it again (as jose's `decodeJwt`, which would bring all of jose into every
 * cold start): compact JWS, a JSON object payload; anything else is `null`.
 */
function idTokenClaims(idToken: string): Record<string, unknown> | null {
  const parts = idToken.split(".")
  if (parts.length !== 3 || !parts[1]) return null
  const claims: unknown = JSON.parse(new TextDecoder().decode(decodeBase64url(parts[1])))
  return isPlainObject(claims) ? claims : null
}

/** The OpenID provider's session id (`sid` of the validated ID Token), when there is one. */
function providerSessionIdOf(account: Account | null): string | null {
  if (!account?.id_token || account.type !== "oidc") return null
  try {
    const sid = idTokenClaims(account.id_token)?.sid
    return typeof sid === "string" && sid ? sid : null
  } catch {
    return null
  }
}

/** The record of a sign-in of `userId` through `account`, made now, ending at `expires`. */
export function newRecord(
  ctx: RequestContext,
  userId: string,
  account: Account | null,
  expires: Date,
): AdapterSessionRecord {
  const now = new Date()
  return {
    id: newSessionId(),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expires,
    userAgent: userAgentOf(ctx),
    ipPrefix: ipPrefixOf(ctx),
    provider: account?.provider ?? null,
    providerAccountId: account?.providerAccountId ?? null,
    providerSessionId: providerSessionIdOf(account),
  }
}

/**
 * Stores the record of a sign-in; `false` when the adapter refused it for a
 * credentials user it does not hold. `authorize` owns its users, who may not
 * be rows of `users`: `@tessera/sql` (from migration 0005) and the memory
 * adapter keep their records all the same, but an adapter whose records need
 * the user (a foreign key, or a database not yet migrated) refuses. That
 * sign-in then goes on without a record, as a session nothing can list or
 * revoke, and the operator is told once (`session-records-unstored-user`).
 * Only a foreign-key refusal counts: any other failure is the adapter's and is
 * thrown (a database refusing writes must not mint sessions nothing can revoke).
 */
export async function storeRecord(
  config: ResolvedConfig,
  record: AdapterSessionRecord,
  account: Account | null,
): Promise<boolean> {
  try {
    await callAdapter(config, "createSessionRecord", record)
    return true
  } catch (error) {
    if (account?.type !== "credentials" || !isForeignKeyRefusal(error)) throw error
    if (await callAdapter(config, "getUser", record.userId)) throw error
    if (!config.warned.has("session-records-unstored-user")) {
      config.warned.add("session-records-unstored-user")
      config.logger.warn("session-records-unstored-user")
    }
    return false
  }
}

/**
 * Whether an adapter's failure is a foreign key refusing the row, somewhere in its cause
 * chain: how an adapter whose records need a stored user refuses another's (SQLite
 * "FOREIGN KEY constraint failed", PostgreSQL 23503 "violates foreign key constraint",
 * MySQL "a foreign key constraint fails", Prisma P2003). Any other failure (the database
 * down, read-only, locked) is a fault: the sign-in fails and it is logged, rather than
 * going on without a record that nothing could then revoke.
 */
function isForeignKeyRefusal(error: unknown): boolean {
  for (let depth = 0; depth < 5 && error != null && typeof error === "object"; depth++) {
    const { message, code } = error as { message?: unknown; code?: unknown }
    if (typeof message === "string" && /foreign key/i.test(message)) return true
    if (code === "23503" || code === "P2003" || code === "SQLITE_CONSTRAINT_FOREIGNKEY") return true
    const cause = (error as { cause?: unknown }).cause
    // An AdapterError's cause is `{ err }` (Auth.js's shape).
    error = cause && typeof cause === "object" && "err" in cause ? cause.err : cause
  }
  return false
}

/** What server code and events see of a record (a copy; no provider-side ids). */
export function toSessionRecord(record: AdapterSessionRecord): SessionRecord {
  return {
    id: record.id,
    userId: record.userId,
    createdAt: new Date(record.createdAt.valueOf()),
    lastSeenAt: new Date(record.lastSeenAt.valueOf()),
    expires: new Date(record.expires.valueOf()),
    userAgent: record.userAgent ?? null,
    ipPrefix: record.ipPrefix ?? null,
    provider: record.provider ?? null,
  }
}

/** Throws unless sessions have records here: no adapter, or one without the methods. */
export function requireSessionRecords(config: ResolvedConfig): void {
  if (config.sessionRecords) return
  if (!config.adapter) {
    throw new MissingAdapter("Session management needs a database adapter (`adapter`)")
  }
  const methods =
    config.session.strategy === "jwt"
      ? "createSessionRecord, touchSessionRecord, listSessionRecords, deleteSessionRecords"
      : "listSessionRecords, deleteSessionRecords"
  throw new MissingAdapterMethods(`Session management needs the adapter methods ${methods}`)
}

/** The user's live sessions, newest first. */
export async function liveSessions(
  config: ResolvedConfig,
  userId: string,
): Promise<AdapterSessionRecord[]> {
  const records = await callAdapter(config, "listSessionRecords", userId)
  const now = Date.now()
  return records
    .filter((record) => record.expires.valueOf() > now && isSession(record))
    .sort((a, b) => b.createdAt.valueOf() - a.createdAt.valueOf() || (a.id < b.id ? -1 : 1))
}

/**
 * Ends the sessions matching `filter` (and the user's sign-ins waiting for a
 * second factor) and fires `sessionRevoked` for each session, except `quiet`
 * (the request's own session ending by sign-out, which fires `signOut`
 * instead). Returns the sessions deleted.
 */
export async function revokeSessions(
  ctx: Pick<RequestContext, "config">,
  filter: SessionRecordFilter,
  reason: SessionRevokedReason,
  quiet?: string,
): Promise<AdapterSessionRecord[]> {
  const startedAt = Date.now()
  const deleted = (await callAdapter(ctx.config, "deleteSessionRecords", filter)).filter(isSession)
  // All of a user's sessions (but one, perhaps) ended: so do the Auth.js cookies they had.
  if (filter.userId !== undefined && filter.id === undefined && adoptsAuthjsCookies(ctx.config)) {
    await markCutoff(ctx.config, filter.userId)
    deleted.push(...(await sweepRacingAdoptions(ctx.config, filter.userId, startedAt, filter)))
  }
  // The provider ends its sessions (back-channel logout): a sign-in through it
  // still waiting for its second factor ends too, or it would finish later.
  if (filter.provider) {
    const provider = pendingSignInProvider(filter.provider)
    await callAdapter(ctx.config, "deleteSessionRecords", { ...filter, provider })
  }
  for (const record of deleted) {
    if (record.id === quiet) continue
    await fireEvent(ctx, "sessionRevoked", { session: toSessionRecord(record), reason })
  }
  return deleted
}

/**
 * Ends one of `userId`'s sessions, by id, as the user asks (the `sessions/revoke` route).
 * Only a session: the same table holds records that are not (a sign-in waiting for its
 * second factor, the mark of the last sign-out everywhere), which the user never sees
 * listed, and which stay, whatever id the request names. Looked up among the user's own
 * records only, so nothing is learnt about other users' ids. A record's kind never
 * changes, so the look-up and the delete cannot disagree.
 */
export async function revokeOwnSession(
  ctx: Pick<RequestContext, "config">,
  userId: string,
  id: string,
  reason: SessionRevokedReason,
): Promise<AdapterSessionRecord | undefined> {
  const records = await callAdapter(ctx.config, "listSessionRecords", userId)
  if (!records.some((record) => record.id === id && isSession(record))) return undefined
  const [revoked] = await revokeSessions(ctx, { id, userId }, reason)
  return revoked
}

/**
 * The live record with this id, whoever's it is: by `getSessionRecord`, or, on an adapter
 * without it, `touchSessionRecord` (which every adapter keeping JWT session records has; the
 * `lastSeenAt` it moves is only shown for a session, and not read for the other records).
 * `"sessions only"` for an adapter with neither and no `createSessionRecord` (database
 * sessions need only list/deleteSessionRecords): every record it holds is a session, since
 * the other kinds (a sign-in waiting for its second factor, the sign-out-everywhere mark) are
 * written with `createSessionRecord`.
 */
async function recordById(
  config: ResolvedConfig,
  id: string,
): Promise<AdapterSessionRecord | null | "sessions only"> {
  if (typeof config.adapter?.getSessionRecord === "function")
    return callAdapter(config, "getSessionRecord", id)
  if (typeof config.adapter?.touchSessionRecord === "function")
    return callAdapter(config, "touchSessionRecord", id, { lastSeenAt: new Date() })
  if (typeof config.adapter?.createSessionRecord !== "function") return "sessions only"
  throw new MissingAdapterMethods(
    "Revoking a session by id alone needs the adapter method getSessionRecord (or touchSessionRecord)",
  )
}

/**
 * Ends one session, by id alone, as server code asks (`revokeSession`): only a session,
 * as `revokeOwnSession`; a sign-in waiting for its second factor or the mark of the last
 * sign-out everywhere stays. Returns the session ended, if any.
 */
export async function revokeSessionById(
  ctx: Pick<RequestContext, "config">,
  id: string,
  reason: SessionRevokedReason,
): Promise<AdapterSessionRecord | undefined> {
  const record = await recordById(ctx.config, id)
  if (record === "sessions only") {
    const [revoked] = await revokeSessions(ctx, { id }, reason)
    return revoked
  }
  if (!record || !isSession(record)) return undefined
  // A record's kind never changes, so the look-up and the delete cannot disagree.
  const [revoked] = await revokeSessions(ctx, { id, userId: record.userId }, reason)
  return revoked
}

/**
 * Ends `userId`'s sessions of unknown origin, when an OpenID provider ends
 * every session of their account (back-channel logout with `sub` alone): the
 * records without a provider are sessions made under Auth.js (an adopted
 * cookie, or a database session from before the move), which may have come
 * through that provider, and with JWT sessions the Auth.js cookies not adopted
 * yet end too (`adoptionCutoff`). Safer to end one too many than to leave a
 * disabled user signed in for as long as their Auth.js cookies live.
 */
export async function revokeUnknownOriginSessions(
  ctx: Pick<RequestContext, "config">,
  userId: string,
  reason: SessionRevokedReason,
): Promise<AdapterSessionRecord[]> {
  const startedAt = Date.now()
  const records = await callAdapter(ctx.config, "listSessionRecords", userId)
  const ended: AdapterSessionRecord[] = []
  for (const record of records) {
    if (record.provider != null || !isSession(record)) continue
    ended.push(...(await revokeSessions(ctx, { id: record.id, userId }, reason)))
  }
  if (adoptsAuthjsCookies(ctx.config)) {
    await markCutoff(ctx.config, userId)
    const swept = await sweepRacingAdoptions(ctx.config, userId, startedAt, {})
    for (const record of swept) {
      await fireEvent(ctx, "sessionRevoked", { session: toSessionRecord(record), reason })
    }
    ended.push(...swept)
  }
  return ended
}
