/**
 * One interface, two strategies: `jwt` (the session lives in an encrypted
 * cookie) and `database` (the cookie holds a random token; the session row lives
 * in the adapter).
 * @module
 */
import type { RequestContext } from "../context.js"
import type { Account, Profile, Session, User } from "../types.js"
import type { AdapterUser } from "../adapters.js"

export interface NewSessionParams {
  user: User | AdapterUser
  account: Account | null
  profile?: Profile
  isNewUser: boolean
}

/** The session of the request, checked against its record when sessions have records. */
export interface CurrentSession {
  userId: string
  /** The session record's id, when sessions have records. */
  sessionId: string | undefined
  /**
   * The provider the user signed in with and their id there, when the session knows it;
   * `idToken`, the sign-in's ID Token, when no adapter keeps it (`signOut: "provider"`).
   */
  provider?: { id: string; accountId: string | null; idToken?: string }
  /**
   * When the user signed in (ms since the epoch), when the session knows it:
   * JWT sessions always (`auth_time`), database sessions from their record.
   */
  signedInAt: number | undefined
}

export interface SessionStrategyHandler {
  /** The current session, after the `jwt`/`session` callbacks; refreshes or clears cookies as needed. */
  read(ctx: RequestContext, update?: { data: unknown }): Promise<Session | null>
  /** Starts a session for a user who just signed in (cookies go to `ctx.cookies`). */
  create(ctx: RequestContext, params: NewSessionParams): Promise<void>
  /** Ends the current session, if any, and fires `signOut`. */
  destroy(ctx: RequestContext): Promise<void>
  /** The id of the signed-in user, without running callbacks (account linking, passkey registration). */
  currentUserId(ctx: RequestContext): Promise<string | null>
  /** The session of the request and its record, without running callbacks; null when there is none. */
  current(ctx: RequestContext): Promise<CurrentSession | null>
}

/** The configured strategy's steps (loaded when the configuration was resolved). */
export function sessionStrategy(ctx: Pick<RequestContext, "config">): SessionStrategyHandler {
  return ctx.config.sessionStrategy
}

/**
 * The steps of `strategy`, for the resolved configuration. Each strategy is its own
 * module, loaded only by the apps that use it: a JWT app never loads the database
 * sessions' code, nor a database app the JWT sessions' (cold start, issue 15).
 */
export async function loadSessionStrategy(
  strategy: "jwt" | "database",
): Promise<SessionStrategyHandler> {
  return strategy === "database"
    ? (await import("./database.js")).databaseSessionStrategy
    : (await import("./jwt.js")).jwtSessionStrategy
}
