/**
 * What the `SignIn` and `SignOut` components put in their forms. They post to
 * the `signIn`/`signOut` form actions, so they work with JavaScript turned off.
 * @module
 */

/**
 * `options` of the components: where to go afterwards, plus any extra fields.
 *
 * @see [Auth.js: @auth/sveltekit](https://authjs.dev/reference/sveltekit) (`SignIn`, `SignOut` components)
 */
export type FormOptions =
  FormData | { redirectTo?: string; callbackUrl?: string; [field: string]: unknown }

/**
 * Extra authorization parameters for the `SignIn` component, in any form `URLSearchParams` takes.
 *
 * @see [Auth.js: @auth/sveltekit](https://authjs.dev/reference/sveltekit) (`SignIn` component)
 */
export type AuthorizationParamsInput =
  string | string[][] | Record<string, string> | URLSearchParams

/** The prefix the `signIn` action reads authorization parameters from. */
const AUTHORIZATION_PARAMS_PREFIX = "authorizationParams-"

/**
 * Provider ids of the e-mail ("magic link") providers: their form gets an e-mail
 * field by default. Any other provider gets one when an `email` slot is passed.
 */
export const emailProviderIds: ReadonlySet<string> = new Set([
  "email",
  "nodemailer",
  "resend",
  "sendgrid",
  "postmark",
  "forwardemail",
  "mailgun",
  "loops",
])

/** The URL the form posts to: the page whose default action is `signIn`/`signOut`. */
export function formAction(page: string | undefined, fallback: string): string {
  const path = (page ?? "").trim() || fallback
  return /^(?:\/|\?|[a-z][a-z0-9+.-]*:)/i.test(path) ? path : `/${path}`
}

/**
 * Parameters of the page's query that describe an earlier try, not the sign-in:
 * a failed try's answer replaces them (Auth.js redirects to `?error=<type>&code=<code>`).
 */
const EARLIER_TRY = new Set(["error", "code"])

/**
 * `action` with the query of the page the form is on (`redirectTo`, `callbackUrl`
 * and the app's own parameters; not `error`/`code`). A failed try's answer shows
 * the page at the form's `action`: without its query, the next try forgets where
 * to go afterwards (and the page's `load` the parameters it was rendered with).
 * An action with a query of its own, or on another origin, is left as given.
 */
export function withPageQuery(action: string, page: URL | undefined): string {
  if (!page || !action.startsWith("/") || action.startsWith("//") || action.includes("?"))
    return action
  const query = new URLSearchParams(page.search)
  for (const name of EARLIER_TRY) query.delete(name)
  const search = query.toString()
  return search ? `${action}?${search}` : action
}

/**
 * Hidden fields for `options`: `redirectTo` (also from Auth.js' `callbackUrl`)
 * and any other text field. `redirect` has no meaning for a form and is dropped.
 */
export function optionFields(options: FormOptions | undefined | null): [string, string][] {
  if (!options) return []
  const entries: [string, unknown][] =
    options instanceof FormData ? [...options] : Object.entries(options)
  const fields = new Map<string, string>()
  for (const [key, value] of entries) {
    if (key === "redirect" || key === "providerId" || key.startsWith(AUTHORIZATION_PARAMS_PREFIX))
      continue
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
      continue
    const name = key === "callbackUrl" ? "redirectTo" : key
    if (name === "redirectTo" && fields.has(name) && key === "callbackUrl") continue
    fields.set(name, String(value))
  }
  return [...fields]
}

/** Hidden `authorizationParams-<name>` fields. */
export function authorizationParamFields(
  params: AuthorizationParamsInput | undefined | null,
): [string, string][] {
  if (!params) return []
  return [...new URLSearchParams(params)].map(([key, value]) => [
    `${AUTHORIZATION_PARAMS_PREFIX}${key}`,
    value,
  ])
}
