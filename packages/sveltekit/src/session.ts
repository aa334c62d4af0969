/**
 * `event.locals.auth()`: the session of the current request, read from the
 * session cookie directly through core's `getSession` (no internal HTTP
 * request, no `Request` object), once per request.
 * @module
 */
import type { RequestEvent } from "@sveltejs/kit"
import { getSession, type AuthConfig } from "@tessera/core"
import type { Cookie, Session } from "@tessera/core/types"
import { applyCookies, cookieRecord } from "./cookies.js"
import { withoutForwardedHeaders } from "./forwarded.js"

/**
 * A function that reads the session on its first call and returns the same
 * promise afterwards: a layout, a page and a hook can all ask for it at the cost
 * of one decryption.
 */
export function sessionReader(
  event: RequestEvent,
  config: AuthConfig,
): () => Promise<Session | null> {
  let pending: Promise<Session | null> | undefined
  return () => (pending ??= readSession(event, config))
}

async function readSession(event: RequestEvent, config: AuthConfig): Promise<Session | null> {
  const { session, cookies } = await getSession(
    {
      url: event.url,
      cookies: cookieRecord(event.cookies),
      headers: withoutForwardedHeaders(event.request.headers),
    },
    config,
  )
  // A refreshed session cookie (sliding expiry), or expired ones for a session that is no longer valid.
  if (cookies.length > 0 && applyCookiesIfPossible(event.cookies, cookies))
    setSessionCookies.add(event)
  return session
}

/** Requests whose response carries session cookies this integration set (see {@link privateIfSessionSet}). */
const setSessionCookies = new WeakSet<RequestEvent>()

/**
 * The app's response to `event`, made private when it carries a session cookie the session read
 * set and says nothing of caching itself: a shared cache (a CDN) must never keep one person's
 * session cookie and hand it to the next visitor. core's own responses follow the same rule; a
 * `Cache-Control` the app set (`setHeaders`) is kept, and so is a response whose headers are
 * immutable (a `fetch` result passed through).
 */
export function privateIfSessionSet(event: RequestEvent, response: Response): Response {
  if (!setSessionCookies.has(event) || response.headers.has("cache-control")) return response
  try {
    response.headers.set("cache-control", "private, no-cache, no-store")
  } catch {
    // Immutable headers: the app's own response object, left as it is.
  }
  return response
}

/**
 * First called after SvelteKit generated the response (from a streamed
 * promise, or in `handle` after `resolve`), the read can no longer set
 * cookies: SvelteKit throws from `cookies.set` then. The session it read is
 * still the answer; the cookies are left for the next request to set, as
 * `getSession` in the Express integration does once headers are sent.
 */
function applyCookiesIfPossible(
  cookies: RequestEvent["cookies"],
  list: readonly Cookie[],
): boolean {
  try {
    applyCookies(cookies, list)
    return true
  } catch {
    // The response is gone: nothing can carry them.
    return false
  }
}
