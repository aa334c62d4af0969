/**
 * Helpers for built-in provider factories.
 * @module
 */
import type { OAuthUserConfig } from "../../providers/oauth.js"
import { hasControlCharacter } from "../../lib/control-characters.js"

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
 * A provider's identifier of the user as an account key, or `""` when the value is none: a
 * non-empty string without control characters (a key that differs from another only by one is
 * another account that prints like it), a safe integer, or a BigInt. Past 2^53, JSON.parse rounds:
 * Kakao's or GitLab's user 9007199254740993 arrives as ...992, another user's id, and would sign
 * in to that user's account. A fraction or `1e21` is no user id. A negative integer is exact and
 * can be one: NetSuite's first administrator of an account is employee -5. A BigInt is always
 * exact (a `profile` callback that read a 64-bit id from its digits returns one), so it is keyed
 * by its decimal digits, negative ones too, as Auth.js's adapters store it.
 */
export function accountKey(value: unknown): string {
  if (typeof value === "string") return hasControlCharacter(value) ? "" : value
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value)
  if (typeof value === "bigint") return value.toString()
  return ""
}

/**
 * A provider's identifier of the user as text, for a built-in `profile`: a
 * string, a number or a BigInt as the provider sent it (see {@link accountKey}). Anything else throws
 * (the sign-in fails with `OAuthProfileParseError`): `String(profile.id)` of a profile
 * without an id is `"undefined"`, one account every such sign-in would share.
 */
export function idText(value: unknown): string {
  const key = accountKey(value)
  if (key !== "") return key
  throw new TypeError("The profile has no user id")
}
