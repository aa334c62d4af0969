/**
 * GET sessions: the signed-in user's live sessions. POST sessions/revoke (CSRF
 * checked): ends one of them, by id.
 *
 * Only ever about the signed-in user: without a session, 401; an id that is
 * not one of their sessions is 404, the same whether it exists for someone
 * else, names a record that is no session, or nothing at all. Without session
 * records (no adapter, or one without the methods), 501 with a message naming
 * what is missing.
 * @module
 */
import type { RequestContext } from "../context.js"
import { InvalidRequest, type AuthError } from "../errors.js"
import { RequestError } from "../http/request.js"
import { noStoreHeaders } from "../http/response.js"
import { sessionStrategy, type CurrentSession } from "../session/index.js"
import { liveSessions, requireSessionRecords, revokeOwnSession } from "../session/records.js"
import type { ResponseInternal, SessionListEntry } from "../types.js"

/** The answer when sessions have no records here. */
export function notImplemented(ctx: RequestContext): ResponseInternal | undefined {
  try {
    requireSessionRecords(ctx.config)
    return undefined
  } catch (error) {
    const { type, message } = error as AuthError
    return { status: 501, headers: noStoreHeaders, body: { error: type, message } }
  }
}

const unauthenticated: ResponseInternal = {
  status: 401,
  headers: noStoreHeaders,
  body: { error: "SessionRequired", message: "Sign in to manage your sessions" },
}

/** The request's session, checked against its record; `undefined` when there is none. */
async function signedIn(ctx: RequestContext): Promise<CurrentSession | undefined> {
  return (await sessionStrategy(ctx).current(ctx)) ?? undefined
}

export async function listSessionsAction(ctx: RequestContext): Promise<ResponseInternal> {
  const missing = notImplemented(ctx)
  if (missing) return missing
  const current = await signedIn(ctx)
  if (!current) return unauthenticated
  const records = await liveSessions(ctx.config, current.userId)
  const body: SessionListEntry[] = records.map((record) => ({
    id: record.id,
    current: record.id === current.sessionId,
    createdAt: record.createdAt.toISOString(),
    lastSeenAt: record.lastSeenAt.toISOString(),
    expires: record.expires.toISOString(),
    userAgent: record.userAgent ?? null,
  }))
  return { headers: noStoreHeaders, body }
}

export async function revokeSessionAction(ctx: RequestContext): Promise<ResponseInternal> {
  const missing = notImplemented(ctx)
  if (missing) return missing
  // Signed in first: without a session the answer is 401 whatever the body says (issue 12).
  const current = await signedIn(ctx)
  if (!current) return unauthenticated
  const id: unknown = ctx.request.body?.id
  if (typeof id !== "string" || !/^[\x21-\x7e]{1,128}$/.test(id)) {
    throw new RequestError(new InvalidRequest("`id` must name one of your sessions"), 400)
  }
  // Deleted only if it is one of their sessions (not another user's, not a record that is no
  // session): anything else is the 404 of an id that does not exist.
  const revoked = await revokeOwnSession(ctx, current.userId, id, "user")
  if (!revoked) {
    return {
      status: 404,
      headers: noStoreHeaders,
      body: { error: "NotFound", message: "You have no session with this id" },
    }
  }
  // Ending the session of this very request: the browser forgets it too.
  if (revoked.id === current.sessionId) await sessionStrategy(ctx).destroy(ctx)
  return {
    headers: noStoreHeaders,
    body: { revoked: revoked.id, current: revoked.id === current.sessionId },
  }
}
