/**
 * The account page's sessions: the signed-in user's devices, from
 * `@tessera/core/sessions` (the same records `GET /auth/sessions` lists), and
 * the two ways to end them: one device, or every device but this one.
 * @module
 */
import type { RequestEvent } from "@sveltejs/kit"
import {
  getSessionId,
  listSessions,
  revokeSession,
  revokeUserSessions,
} from "@tessera/core/sessions"
import { config } from "../../auth"

export interface DeviceSession {
  id: string
  current: boolean
  device: string
  createdAt: Date
  lastSeenAt: Date
  expires: Date
  provider: string | null
}

/** The session of `event` (checked against its record) and its user, or `null`. */
function current(event: RequestEvent) {
  const cookies = Object.fromEntries(event.cookies.getAll().map((c) => [c.name, c.value]))
  return getSessionId({ url: event.url, cookies, headers: event.request.headers }, config)
}

/** "Firefox on Linux" from a User-Agent, or the start of it. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown device"
  const browser = /(Firefox|Edg|Chrome|Safari)\//.exec(userAgent)?.[1]?.replace("Edg", "Edge")
  const system = /(Windows|Mac OS X|Android|iPhone|iPad|Linux)/.exec(userAgent)?.[1]
  if (browser) return system ? `${browser} on ${system.replace("Mac OS X", "macOS")}` : browser
  return userAgent.slice(0, 60)
}

export async function sessionsOf(event: RequestEvent): Promise<DeviceSession[]> {
  const here = await current(event)
  if (!here) return []
  return (await listSessions(config, here.userId)).map((session) => ({
    id: session.id,
    current: session.id === here.sessionId,
    device: deviceOf(session.userAgent),
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    expires: session.expires,
    provider: session.provider,
  }))
}

/** Ends one of the signed-in user's sessions; false when `id` is not one of theirs. */
export async function endSession(event: RequestEvent, id: string): Promise<boolean> {
  const here = await current(event)
  if (!here) return false
  const theirs = await listSessions(config, here.userId)
  if (!theirs.some((session) => session.id === id)) return false
  return revokeSession(config, id)
}

/** Ends every session of the signed-in user but this one; how many ended. */
export async function endOtherSessions(event: RequestEvent): Promise<number> {
  const here = await current(event)
  if (!here) return 0
  return revokeUserSessions(config, here.userId, { except: here.sessionId })
}
