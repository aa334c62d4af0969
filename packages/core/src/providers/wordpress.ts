/**
 * Sign in with WordPress.com (OAuth 2.0), for WordPress.com and Jetpack-connected sites' users.
 *
 * In the WordPress.com applications manager (developer.wordpress.com/apps), create
 * an application with `https://<your app>/auth/callback/wordpress` as its redirect
 * URL. `clientId`/`clientSecret` default to `AUTH_WORDPRESS_ID`/`AUTH_WORDPRESS_SECRET`.
 *
 * @example
 * ```ts
 * import WordPress from "@tessera/core/providers/wordpress"
 * WordPress({ clientId: process.env.WORDPRESS_ID, clientSecret: process.env.WORDPRESS_SECRET })
 * ```
 *
 * WordPress.com's own ways, handled here:
 * - scope `auth`: the user's identity only (`/rest/v1/me`), no blog;
 * - client credentials in the request body (`client_secret_post`), as documented;
 * - WordPress.com documents no PKCE: `state` is checked as well;
 * - the user's id is the number `ID`, the picture `avatar_URL`.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://developer.wordpress.com/docs/oauth2/
 * @see https://developer.wordpress.com/docs/api/1.1/get/me/
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /rest/v1/me`. */
export interface WordPressProfile {
  ID: number
  display_name: string
  username: string
  email: string
  email_verified: boolean
  primary_blog?: number
  primary_blog_url?: string
  language?: string
  locale_variant?: string
  token_site_id?: number | false
  token_scope?: string[]
  avatar_URL: string
  profile_URL: string
  verified?: boolean
  site_count?: number
  visible_site_count?: number
  has_unseen_notes?: boolean
  newest_note_type?: string
  phone_account?: boolean
  meta?: ProviderClaim
  is_valid_google_apps_country?: boolean
  logout_URL?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with WordPress.com (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_WORDPRESS_ID`,
 *   `AUTH_WORDPRESS_SECRET`), and any option of the generic OAuth provider to override.
 * @see [Auth.js: WordPress.com](https://authjs.dev/reference/core/providers/wordpress)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function WordPress<P extends WordPressProfile = WordPressProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "wordpress",
    name: "WordPress.com",
    type: "oauth",
    authorization: {
      url: "https://public-api.wordpress.com/oauth2/authorize",
      params: { scope: "auth" },
    },
    token: "https://public-api.wordpress.com/oauth2/token",
    userinfo: "https://public-api.wordpress.com/rest/v1/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idText(profile.ID),
        name: profile.display_name || profile.username || null,
        email: profile.email || null,
        image: profile.avatar_URL || null,
      }
    },
    verifiedEmail: (profile) =>
      profile.email_verified === true && typeof profile.email === "string" && profile.email
        ? profile.email
        : null,
    style: { brandColor: "#3499cd" },
    options: endpointUrlsAsObjects(options),
  }
}
