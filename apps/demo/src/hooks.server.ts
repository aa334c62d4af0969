import { redirect, type Handle, type ServerInit } from "@sveltejs/kit"
import { sequence } from "@sveltejs/kit/hooks"
import { building } from "$app/environment"
import { env } from "$env/dynamic/private"
import { handle as authentication } from "./auth"
import { seedDemoAccounts } from "$lib/server/accounts"
import { migrateDatabase } from "$lib/server/db"
import { demoSettings } from "$lib/server/settings"

/** Runs once, before the first request: the database is migrated and, when enabled, the demo accounts exist. */
export const init: ServerInit = async () => {
  if (building) return
  const applied = await migrateDatabase()
  if (applied.length) console.log(`Database migrated: ${applied.join(", ")}`)
  // Only when asked for: their passwords are published.
  if (demoSettings().demoAccounts) await seedDemoAccounts()
}

/**
 * Failed sign-ins come back to the demo's own sign-in page, with the reason. Tessera sends a
 * failure to its sign-in page, `/auth/signin?error=...`; the demo keeps Tessera's built-in page
 * on show there (so `pages.signIn` is not set), and turns those failures around to `/signin`,
 * where its own forms are. Only the `error` and `code` values go along (the page maps them to
 * fixed messages), and where to go afterwards when it is a path on this site.
 */
const failuresToOwnPage: Handle = ({ event, resolve }) => {
  // The path first: prerendered pages may not read the query.
  if (event.url.pathname !== "/auth/signin" || event.request.method !== "GET") return resolve(event)
  const { searchParams, origin } = event.url
  const error = searchParams.get("error")
  if (error) {
    const query = new URLSearchParams({ error })
    const code = searchParams.get("code")
    if (code) query.set("code", code)
    const next = pathOnThisSite(searchParams.get("callbackUrl"), origin)
    if (next) query.set("redirectTo", next)
    redirect(303, `/signin?${query}`)
  }
  return resolve(event)
}

/** `/path?query` of a URL on this site, else nothing. */
function pathOnThisSite(url: string | null, origin: string): string | undefined {
  if (!url) return undefined
  try {
    const parsed = new URL(url, origin)
    return parsed.origin === origin ? parsed.pathname + parsed.search : undefined
  } catch {
    return undefined
  }
}

/**
 * No page of the demo is shown inside another site's frame. Its pages act on the session
 * (sign out, end other devices' sessions, set up a second factor, sign in), and a frame from a
 * site the browser counts as the same one (a sibling subdomain, another port on this host)
 * carries the session cookie: framed under a decoy, one click of the user's would be theirs.
 * Tessera's built-in pages send their own, stricter, policy; it stays.
 */
const noFraming: Handle = async ({ event, resolve }) => {
  const response = await resolve(event)
  const headers = new Headers(response.headers)
  if (!headers.has("x-frame-options")) headers.set("X-Frame-Options", "DENY")
  if (!headers.has("content-security-policy"))
    headers.set("Content-Security-Policy", "frame-ancestors 'none'")
  // A new response: one SvelteKit or a hook made may have immutable headers.
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}

/** Path prefixes only signed-in users may open. */
const PROTECTED = ["/admin"]

/**
 * Compared on the path SvelteKit routes on: the decoded one (`/%61dmin/users` is the
 * `/admin/users` page, while `event.url.pathname` keeps the encoding), decoded as SvelteKit
 * does (`%25` stays). A path that does not decode is refused by SvelteKit; here it counts as
 * protected.
 */
function isProtected(rawPathname: string): boolean {
  let pathname: string
  try {
    pathname = rawPathname.split("%25").map(decodeURI).join("%25")
  } catch {
    return true
  }
  return PROTECTED.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
}

/**
 * Path-based protection, after authentication in the sequence: everything under
 * `/admin` needs a session, however the request got there (page, data request
 * of client-side navigation, form action), without each page repeating it.
 */
const authorization: Handle = async ({ event, resolve }) => {
  if (isProtected(event.url.pathname)) {
    const session = await event.locals.auth()
    if (!session?.user) {
      redirect(
        303,
        `/signin?${new URLSearchParams({ redirectTo: event.url.pathname + event.url.search })}`,
      )
    }
  }
  return resolve(event)
}

/**
 * The benchmark's baseline (`DEMO_AUTH_HOOK=off`, see bench/demo-auth.mjs): the
 * same app with Tessera's hook removed; `locals.auth()` then finds nobody.
 * Never set it otherwise: sign-in stops working.
 */
const withoutAuthentication: Handle = ({ event, resolve }) => {
  event.locals.auth = async () => null
  return resolve(event)
}

/**
 * For apps/demo/test/earlier-hook-cookies.test.ts only (`DEMO_EARLIER_COOKIES=on`): a hook
 * before Tessera's that sets a cookie the two ways docs/sveltekit.md compares. SvelteKit adds
 * `event.cookies` to the answers `resolve` renders, not to the ones Tessera's hook answers
 * `/auth/*` with; a cookie appended to whatever `resolve` returned reaches both.
 */
const earlierCookies: Handle = async ({ event, resolve }) => {
  event.cookies.set("demo-set", "1", { path: "/", secure: false })
  const response = await resolve(event)
  response.headers.append(
    "set-cookie",
    event.cookies.serialize("demo-appended", "1", { path: "/", secure: false }),
  )
  return response
}

export const handle = sequence(
  noFraming,
  ...(env.DEMO_EARLIER_COOKIES === "on" ? [earlierCookies] : []),
  failuresToOwnPage,
  env.DEMO_AUTH_HOOK === "off" ? withoutAuthentication : authentication,
  authorization,
)
