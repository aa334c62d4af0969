/**
 * Sign in with Pinterest (OAuth 2.0, API v5).
 *
 * Add `https://<your app>/auth/callback/pinterest` as a redirect URI of your app
 * in the Pinterest developer portal. `clientId`/`clientSecret` (App id and
 * secret key) default to `AUTH_PINTEREST_ID`/`AUTH_PINTEREST_SECRET`.
 *
 * @example
 * ```ts
 * import Pinterest from "@tessera/core/providers/pinterest"
 * Pinterest({ clientId: process.env.AUTH_PINTEREST_ID, clientSecret: process.env.AUTH_PINTEREST_SECRET })
 * ```
 *
 * The scope is `user_accounts:read`; the client authenticates with HTTP Basic;
 * the profile is `GET /v5/user_account`, whose `username` is the id and the name.
 *
 * Verified e-mail: none; Pinterest shares no e-mail address.
 * @see https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
 * @see https://developers.pinterest.com/docs/api/v5/user_account-get
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The account from `GET /v5/user_account`. */
export interface PinterestProfile {
  account_type: "BUSINESS" | "PINNER"
  id?: string
  username: string
  profile_image: string
  website_url: string
  business_name?: string | null
  board_count?: number
  pin_count?: number
  follower_count?: number
  following_count?: number
  monthly_views?: number
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Pinterest (OAuth 2.0, API v5).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_PINTEREST_ID`, `AUTH_PINTEREST_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Pinterest](https://authjs.dev/reference/core/providers/pinterest)
 * @see https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
 * @see https://developers.pinterest.com/docs/api/v5/user_account-get
 */
export default function Pinterest<P extends PinterestProfile = PinterestProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "pinterest",
    name: "Pinterest",
    type: "oauth",
    authorization: {
      url: "https://www.pinterest.com/oauth",
      params: { scope: "user_accounts:read" },
    },
    token: "https://api.pinterest.com/v5/oauth/token",
    userinfo: "https://api.pinterest.com/v5/user_account",
    profile(profile) {
      return {
        id: profile.username,
        name: profile.username,
        email: null,
        image: profile.profile_image ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#bd081c" },
    options: endpointUrlsAsObjects(options),
  }
}
