/**
 * Helpers for built-in provider factories.
 * @module
 */
import type { OAuthUserConfig } from "../../providers/oauth.js"

/**
 * Endpoint options given as URL strings become `{ url }` objects, so merging
 * them over a built-in provider's endpoint objects replaces the URL only and
 * keeps that provider's own `params`, `request` and `conform`. The query of an
 * authorization or userinfo URL becomes `params` too: a provider's default
 * parameters are set over the URL's query, and in Auth.js a string endpoint's
 * query is what is sent (`authorization: "https://…/authorize?scope=identify+guilds"`),
 * so a parameter the app's URL names must win over the provider's default.
 */
export function endpointUrlsAsObjects<O extends OAuthUserConfig<any>>(options: O): O {
  const result = { ...options }
  for (const key of ["authorization", "token", "userinfo"] as const) {
    const value = result[key]
    if (typeof value !== "string") continue
    // A token endpoint's `params` go in the request body, not the URL: its query stays as is.
    const params = key === "token" ? {} : queryParams(value)
    ;(result as Record<string, unknown>)[key] = { url: value, ...params }
  }
  return result
}

/** `{ params }` from a URL's query, or nothing (no query, or not a URL: normalizing reports it). */
function queryParams(url: string): { params?: Record<string, string> } {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return {}
  }
  const params = Object.fromEntries(parsed.searchParams)
  return Object.keys(params).length > 0 ? { params } : {}
}

/**
 * A provider's identifier of the user as text, for a built-in `profile`: a
 * string or a number as the provider sent it. Anything else throws (the sign-in
 * fails with `OAuthProfileParseError`): `String(profile.id)` of a profile
 * without an id is `"undefined"`, one account every such sign-in would share.
 */
export function idText(value: unknown): string {
  if (typeof value === "string" && value !== "") return value
  if (typeof value === "number" && Number.isFinite(value)) return String(value)
  throw new TypeError("The profile has no user id")
}
