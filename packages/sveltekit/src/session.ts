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
  reading.add(event)
  const { session, cookies } = await getSession(
    {
      url: event.url,
      cookies: cookieRecord(event.cookies),
      headers: withoutForwardedHeaders(event.request.headers),
    },
    config,
  ).finally(() => reading.delete(event))
  // The response now shows this user's data (or carries their cookie): see privateIfSessionSet.
  if (session) signedIn.add(event)
  // A refreshed session cookie (sliding expiry), or expired ones for a session that is no longer valid.
  if (cookies.length > 0 && applyCookiesIfPossible(event.cookies, cookies))
    setSessionCookies.add(event)
  return session
}

/** Requests whose response carries session cookies this integration set (see {@link privateIfSessionSet}). */
const setSessionCookies = new WeakSet<RequestEvent>()

/** Requests for which `locals.auth()` found a session (see {@link privateIfSessionSet}). */
const signedIn = new WeakSet<RequestEvent>()

/**
 * Requests whose `locals.auth()` had not answered yet: a load's unawaited promise (streamed by
 * SvelteKit) may put the user's data in the body after the headers are made, so such a
 * response counts as signed in (see {@link privateIfSessionSet}).
 */
const reading = new WeakSet<RequestEvent>()

/** What a response that must stay out of shared caches gets: core's own responses say the same. */
const PRIVATE = "private, no-cache, no-store"

/**
 * The app's response to `event`, made private when it was rendered with a session (`locals.auth()`
 * found one, whether or not its cookie slid, or had not answered yet: a streamed page) or sets a cookie of Tessera's (a session cookie, in
 * chunks or not, a CSRF token, ...): a shared cache (a CDN) must never keep one person's page or
 * session cookie and hand it to the next visitor. core's own responses follow the same rule. The
 * cookie may come from this request's `locals.auth()`, or from another request of the app's:
 * SvelteKit copies the `Set-Cookie` lines of a load's `event.fetch` to an endpoint (whose
 * `locals.auth()` moved the session forward) or to `/auth/session` onto the page's response.
 * A `Cache-Control` the app set (`setHeaders`) is kept when it already keeps shared caches out
 * (`private` or `no-store`); one that lets them in (`public, max-age=600`, `s-maxage`, ...) is
 * replaced. A response whose headers are immutable (a `fetch` result passed through) is left as
 * it is; anonymous pages and cookies of the app's own change nothing.
 */
export function privateIfSessionSet(
  event: RequestEvent,
  response: Response,
  config: AuthConfig,
): Response {
  const personal =
    signedIn.has(event) ||
    reading.has(event) ||
    setSessionCookies.has(event) ||
    setsAuthCookie(response, config)
  if (!personal || keepsSharedCachesOut(response.headers.get("cache-control"))) return response
  try {
    response.headers.set("cache-control", PRIVATE)
  } catch {
    // Immutable headers: the app's own response object, left as it is.
  }
  return response
}

/** Whether a `Cache-Control` value already forbids shared caches to store the response. */
function keepsSharedCachesOut(value: string | null): boolean {
  if (value === null) return false
  // `private="set-cookie"` names fields only: a shared cache may still store the rest of the page.
  return value
    .split(",")
    .map((directive) => directive.trim().toLowerCase())
    .some((directive) => directive === "private" || directive.split("=")[0] === "no-store")
}

/** Whether `response` sets a cookie of Tessera's: a default name (`tessera.*`, prefixed or not) or one the configuration gives. */
function setsAuthCookie(response: Response, config: AuthConfig): boolean {
  const lines = response.headers.getSetCookie()
  if (lines.length === 0) return false
  const named = configuredNames(config)
  return lines.some((line) => {
    // A chunk of a long cookie is `<name>.<n>`.
    const name = line
      .slice(0, line.indexOf("="))
      .trim()
      .replace(/\.\d+$/, "")
    return named.has(name) || name.replace(/^__(Secure|Host)-/, "").startsWith("tessera.")
  })
}

const cookieNames = new WeakMap<AuthConfig, ReadonlySet<string>>()

/** The cookie names the configuration sets itself (`cookies.sessionToken.name`, ...). */
function configuredNames(config: AuthConfig): ReadonlySet<string> {
  let names = cookieNames.get(config)
  if (!names) {
    names = new Set(
      Object.values(config.cookies ?? {}).flatMap((cookie) => (cookie?.name ? [cookie.name] : [])),
    )
    cookieNames.set(config, names)
  }
  return names
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
