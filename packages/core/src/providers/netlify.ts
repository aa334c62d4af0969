/**
 * Sign in with Netlify (OAuth 2.0).
 *
 * Register an OAuth application under your Netlify user settings (Applications)
 * with `https://<your app>/auth/callback/netlify` as its redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_NETLIFY_ID`/`AUTH_NETLIFY_SECRET`.
 *
 * @example
 * ```ts
 * import Netlify from "@tessera/core/providers/netlify"
 * Netlify({ clientId: process.env.AUTH_NETLIFY_ID, clientSecret: process.env.AUTH_NETLIFY_SECRET })
 * ```
 *
 * No `scope` parameter is sent; the profile is `GET /api/v1/user`.
 *
 * Verified e-mail: none. The `email` of `/api/v1/user` comes with no flag
 * saying Netlify verified it.
 * @see https://docs.netlify.com/api/get-started/#authentication
 * @see https://open-api.netlify.com/#tag/user/operation/getCurrentUser
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /api/v1/user`. */
export interface NetlifyProfile {
  id: string
  uid?: string
  full_name: string | null
  avatar_url: string | null
  email: string
  affiliate_id?: string
  site_count?: number
  created_at?: string
  last_login?: string
  login_providers?: string[]
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Netlify (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_NETLIFY_ID`, `AUTH_NETLIFY_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Netlify](https://authjs.dev/reference/core/providers/netlify)
 * @see https://docs.netlify.com/api/get-started/#authentication
 * @see https://open-api.netlify.com/#tag/user/operation/getCurrentUser
 */
export default function Netlify<P extends NetlifyProfile = NetlifyProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "netlify",
    name: "Netlify",
    type: "oauth",
    authorization: "https://app.netlify.com/authorize",
    token: "https://api.netlify.com/oauth/token",
    userinfo: "https://api.netlify.com/api/v1/user",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.full_name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#32e6e2" },
    options: endpointUrlsAsObjects(options),
  }
}
