/**
 * Sign in with Todoist (OAuth 2.0).
 *
 * In the Todoist App Management Console, create an app with
 * `https://<your app>/auth/callback/todoist` as its OAuth redirect URL.
 * `clientId`/`clientSecret` default to `AUTH_TODOIST_ID`/`AUTH_TODOIST_SECRET`.
 *
 * @example
 * ```ts
 * import Todoist from "@tessera/core/providers/todoist"
 * Todoist({ clientId: process.env.TODOIST_ID, clientSecret: process.env.TODOIST_SECRET })
 * ```
 *
 * Todoist's own ways, handled here:
 * - scope `data:read` (Todoist has no narrower one that reads the user);
 * - Todoist requires `state` and has no PKCE: the check is `state`;
 * - client credentials in the request body (`client_secret_post`);
 * - the user is read from the Todoist API v1's `GET /api/v1/user`. Auth.js reads it
 *   from the Sync API v9, which Todoist has deprecated in favour of API v1; the
 *   user's fields (`id`, `email`, `full_name`, `avatar_big`) are the same.
 *
 * Verified e-mail: none: the user has no flag saying the address was verified.
 * @see https://developer.todoist.com/guides/#oauth
 * @see https://developer.todoist.com/api/v1/#tag/User
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /api/v1/user`. */
export interface TodoistProfile {
  id: string
  email: string
  full_name: string
  avatar_big?: string | null
  avatar_medium?: string | null
  avatar_s640?: string | null
  avatar_small?: string | null
  image_id?: string | null
  inbox_project_id?: string
  is_premium?: boolean
  lang?: string
  tz_info?: { timezone: string; gmt_string: string; hours: number; minutes: number }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Todoist (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_TODOIST_ID`,
 *   `AUTH_TODOIST_SECRET`), and any option of the generic OAuth provider to override.
 * @see [Auth.js: Todoist](https://authjs.dev/reference/core/providers/todoist)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Todoist<P extends TodoistProfile = TodoistProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "todoist",
    name: "Todoist",
    type: "oauth",
    authorization: { url: "https://todoist.com/oauth/authorize", params: { scope: "data:read" } },
    token: "https://todoist.com/oauth/access_token",
    userinfo: "https://api.todoist.com/api/v1/user",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    // Todoist's tokens do not expire and come with no refresh token.
    tokenRefresh: false,
    profile(profile) {
      return {
        id: idText(profile.id),
        name: profile.full_name || null,
        email: profile.email || null,
        image: profile.avatar_big ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#e44332" },
    options: endpointUrlsAsObjects(options),
  }
}
