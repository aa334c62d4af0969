/**
 * Session management from server code (`@tessera/core/sessions`): admin
 * tools, background jobs, and your own account pages. The same records the
 * `sessions` routes show, for both session strategies; each revoked session
 * fires the `sessionRevoked` event (reason `"server"`) and stops working on its
 * next check (JWT sessions: within `session.revalidateAge`).
 *
 * They need an adapter that keeps session records (`@tessera/sql` and the
 * memory adapter of `@tessera/testing` do); without one they throw
 * `MissingAdapter` or `MissingAdapterMethods`.
 *
 * @example
 * ```ts
 * import { revokeUserSessions } from "@tessera/core/sessions"
 * // After the user changed their password: sign them out everywhere else.
 * const current = await getSessionId({ url: request.url, cookies: request.headers.get("cookie") }, authConfig)
 * await revokeUserSessions(authConfig, user.id, { except: current?.sessionId })
 * ```
 * @module
 */
import type { AuthConfig } from "./config/auth-config.js"
import type { ResolvedConfig } from "./config/resolve.js"
import { resolvedOrThrow } from "./config/resolved.js"
import { adoptAuthjsSession } from "./session/authjs-cookies.js"
import { sessionContext, type GetSessionInput } from "./session/get-session.js"
import { sessionStrategy } from "./session/index.js"
import {
  liveSessions,
  requireSessionRecords,
  revokeSessionById,
  revokeSessions,
  toSessionRecord,
} from "./session/records.js"
import type { SessionRecord } from "./types.js"

export type { SessionRecord, SessionRevokedReason, SessionListEntry } from "./types.js"

async function resolved(config: AuthConfig): Promise<ResolvedConfig> {
  const resolvedConfig = await resolvedOrThrow(config)
  requireSessionRecords(resolvedConfig)
  return resolvedConfig
}

/**
 * The user's live sessions, newest first: when and where (user agent, network)
 * each started, when it was last seen, when it expires, which provider.
 *
 * @param config The same configuration object `Auth()` gets.
 * @param userId The user's id.
 * @see [OWASP Session Management Cheat Sheet: simultaneous session logons](https://cheatsheetseries.owasp.org/cheatsheets/Session_Management_Cheat_Sheet.html#simultaneous-session-logons)
 */
export async function listSessions(config: AuthConfig, userId: string): Promise<SessionRecord[]> {
  const resolvedConfig = await resolved(config)
  return (await liveSessions(resolvedConfig, userId)).map(toSessionRecord)
}

/**
 * Ends one session, by id (from `listSessions` or the `sessions` route). Only a
 * live session: an id of another record in the same table (a sign-in waiting
 * for its second factor, the mark of the last sign-out everywhere) ends
 * nothing and leaves it as it is. The record is looked up by the adapter's
 * `getSessionRecord`, or else its `touchSessionRecord`; an adapter with
 * neither throws `MissingAdapterMethods`.
 *
 * @param config The same configuration object `Auth()` gets.
 * @param sessionId The session's id.
 * @returns Whether a session ended.
 * @see [OWASP Session Management Cheat Sheet: session expiration](https://cheatsheetseries.owasp.org/cheatsheets/Session_Management_Cheat_Sheet.html#session-expiration)
 * @see https://github.com/tessera-auth/tessera/blob/main/docs/sessions.md
 */
export async function revokeSession(config: AuthConfig, sessionId: string): Promise<boolean> {
  const resolvedConfig = await resolved(config)
  return !!(await revokeSessionById({ config: resolvedConfig }, sessionId, "server"))
}

/**
 * Ends every session of a user (optionally but one): after a password or
 * e-mail change, a suspected compromise, or when an administrator locks the
 * account. Only sessions with a record end: a credentials sign-in with JWT
 * sessions has one only when the adapter stores its user (`getUser` finds it).
 *
 * @param config The same configuration object `Auth()` gets.
 * @param userId The user's id.
 * @param options `except`: the id of a session to keep (the one making the change).
 * @returns How many sessions ended.
 * @see [OWASP Session Management Cheat Sheet: renew the session after a privilege change](https://cheatsheetseries.owasp.org/cheatsheets/Session_Management_Cheat_Sheet.html#renew-the-session-id-after-any-privilege-level-change)
 */
export async function revokeUserSessions(
  config: AuthConfig,
  userId: string,
  options: { except?: string } = {},
): Promise<number> {
  const resolvedConfig = await resolved(config)
  const ended = await revokeSessions(
    { config: resolvedConfig },
    { userId, ...(options.except ? { exceptId: options.except } : {}) },
    "server",
  )
  return ended.length
}

/**
 * The id of the request's session (checked against its record), and its user:
 * for keeping this session when revoking the others. `null` when no session.
 *
 * @param input The request's URL and cookies, as for `getSession`.
 * @param config The same configuration object `Auth()` gets.
 * @see {@link revokeUserSessions}
 */
export async function getSessionId(
  input: GetSessionInput,
  config: AuthConfig,
): Promise<{ sessionId: string; userId: string } | null> {
  const ctx = sessionContext(input, await resolved(config))
  // An Auth.js cookie not yet adopted names the same session (database sessions).
  await adoptAuthjsSession(ctx)
  const current = await sessionStrategy(ctx).current(ctx)
  return current?.sessionId ? { sessionId: current.sessionId, userId: current.userId } : null
}
