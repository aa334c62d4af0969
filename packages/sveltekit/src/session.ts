/**
 * `event.locals.auth()`: the session of the current request, read from the
 * session cookie directly through core's `getSession` (no internal HTTP
 * request, no `Request` object), once per request.
 * @module
 */
import type { RequestEvent } from "@sveltejs/kit"
import { getSession, type AuthConfig } from "@tessera/core"
import type { Session } from "@tessera/core/types"
import { applyCookies, cookieRecord } from "./cookies.js"

/**
 * A function that reads the session on its first call and returns the same
 * promise afterwards: a layout, a page and a hook can all ask for it at the cost
 * of one decryption.
 */
export function sessionReader(event: RequestEvent, config: AuthConfig): () => Promise<Session | null> {
  let pending: Promise<Session | null> | undefined
  return () => (pending ??= readSession(event, config))
}

async function readSession(event: RequestEvent, config: AuthConfig): Promise<Session | null> {
  const { session, cookies } = await getSession(
    { url: effectiveUrl(event, !!config.trustHost), cookies: cookieRecord(event.cookies), headers: event.request.headers },
    config,
  )
  // A refreshed session cookie (sliding expiry), or expired ones for a session that is no longer valid.
  applyCookies(event.cookies, cookies)
  return session
}

/**
 * The URL the browser used, as `Auth()` sees it: behind a trusted proxy the
 * forwarded protocol decides between the `__Secure-` and the plain cookie
 * names, so `handle` and `locals.auth()` always agree on which cookie is the
 * session's. Forwarded headers from an untrusted host are ignored.
 */
function effectiveUrl(event: RequestEvent, trustHost: boolean): URL {
  const url = event.url
  if (!trustHost) return url
  const proto = first(event.request.headers.get("x-forwarded-proto"))
  const host = first(event.request.headers.get("x-forwarded-host"))
  if (proto === undefined && host === undefined) return url
  const scheme = proto === "http" || proto === "https" ? proto : url.protocol.slice(0, -1)
  try {
    return new URL(`${scheme}://${host ?? url.host}${url.pathname}`)
  } catch {
    return url
  }
}

function first(header: string | null): string | undefined {
  const value = header?.split(",")[0]?.trim()
  return value ? value : undefined
}
