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
  applyCookiesIfPossible(event.cookies, cookies)
  return session
}

/**
 * First called after SvelteKit generated the response (from a streamed
 * promise, or in `handle` after `resolve`), the read can no longer set
 * cookies: SvelteKit throws from `cookies.set` then. The session it read is
 * still the answer; the cookies are left for the next request to set, as
 * `getSession` in the Express integration does once headers are sent.
 */
function applyCookiesIfPossible(cookies: RequestEvent["cookies"], list: readonly Cookie[]): void {
  try {
    applyCookies(cookies, list)
  } catch {
    // The response is gone: nothing can carry them.
  }
}
