/**
 * Helpers for built-in provider factories.
 * @module
 */
import type { OAuthUserConfig } from "../../providers/oauth.js"

/**
 * Endpoint options given as URL strings become `{ url }` objects, so merging
 * them over a built-in provider's endpoint objects replaces the URL only and
 * keeps that provider's own `params`, `request` and `conform`.
 */
export function endpointUrlsAsObjects<O extends OAuthUserConfig<any>>(options: O): O {
  const result = { ...options }
  for (const key of ["authorization", "token", "userinfo"] as const) {
    const value = result[key]
    if (typeof value === "string") (result as Record<string, unknown>)[key] = { url: value }
  }
  return result
}
