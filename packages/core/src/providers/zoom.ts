/**
 * Sign in with Zoom (OAuth 2.0).
 *
 * Create a General (user-managed) app in the Zoom App Marketplace, add
 * `https://<your app>/auth/callback/zoom` as its OAuth redirect URL, and give it
 * the `user:read:user` scope (scopes are set on the app, not in the request).
 * `clientId`/`clientSecret` default to `AUTH_ZOOM_ID`/`AUTH_ZOOM_SECRET`.
 *
 * @example
 * ```ts
 * import Zoom from "@tessera/core/providers/zoom"
 * Zoom({ clientId: process.env.AUTH_ZOOM_ID, clientSecret: process.env.AUTH_ZOOM_SECRET })
 * ```
 *
 * Zoom takes no `scope` parameter (the app's scopes apply), authenticates the
 * client with HTTP Basic, and supports PKCE. The profile is `GET /v2/users/me`;
 * the name is first and last name joined.
 *
 * Verified e-mail: none. `/v2/users/me` has a `verified` flag documented as
 * "whether user is verified or not" (the account), not as the address's.
 * @see https://developers.zoom.us/docs/integrations/oauth/
 * @see https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId}
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /v2/users/me`. */
export interface ZoomProfile {
  id: string
  first_name: string
  last_name: string
  display_name?: string
  email: string
  type: number
  role_name: string
  pmi: number
  use_pmi: boolean
  vanity_url?: string
  personal_meeting_url: string
  timezone: string
  /** 1: the account is verified; 0: not. */
  verified: number
  dept: string
  created_at: string
  last_login_time: string
  last_client_version: string
  pic_url?: string
  host_key?: string
  jid: string
  group_ids: string[]
  im_group_ids: string[]
  account_id: string
  language: string
  phone_country: string
  phone_number: string
  status: string
  login_type?: number
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Zoom (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_ZOOM_ID`, `AUTH_ZOOM_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Zoom](https://authjs.dev/reference/core/providers/zoom)
 * @see https://developers.zoom.us/docs/integrations/oauth/
 * @see https://developers.zoom.us/docs/api/users/#tag/users/GET/users/{userId}
 */
export default function Zoom<P extends ZoomProfile = ZoomProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "zoom",
    name: "Zoom",
    type: "oauth",
    authorization: "https://zoom.us/oauth/authorize",
    token: "https://zoom.us/oauth/token",
    userinfo: "https://api.zoom.us/v2/users/me",
    profile(profile) {
      const name = [profile.first_name, profile.last_name].filter(Boolean).join(" ")
      return {
        id: profile.id,
        name: name || profile.display_name || null,
        email: profile.email ?? null,
        image: profile.pic_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#0b5cff" },
    options: endpointUrlsAsObjects(options),
  }
}
