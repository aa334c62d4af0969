/**
 * Sign in with Bitbucket Cloud (OAuth 2.0).
 *
 * Add an OAuth consumer under your workspace settings with
 * `https://<your app>/auth/callback/bitbucket` as its callback URL and the
 * Account: Read permission. `clientId`/`clientSecret` (the consumer's key and
 * secret) default to `AUTH_BITBUCKET_ID`/`AUTH_BITBUCKET_SECRET`.
 *
 * @example
 * ```ts
 * import Bitbucket from "@tessera/core/providers/bitbucket"
 * Bitbucket({ clientId: process.env.AUTH_BITBUCKET_ID, clientSecret: process.env.AUTH_BITBUCKET_SECRET })
 * ```
 *
 * The scope is `account`; the profile is `GET /2.0/user`, which carries no
 * e-mail address; the image is `links.avatar.href`. The client authenticates
 * with HTTP Basic.
 *
 * Verified e-mail: none; the profile has no address.
 * @see https://developer.atlassian.com/cloud/bitbucket/oauth-2/
 * @see https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/#api-user-get
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /2.0/user`. */
export interface BitbucketProfile {
  account_id: string
  uuid: string
  username: string
  nickname: string
  display_name: string
  type: string
  created_on: string
  account_status: string
  has_2fa_enabled: boolean | null
  is_staff: boolean
  location: string | null
  links: Record<string, { href?: string; name?: string }>
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Bitbucket Cloud (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_BITBUCKET_ID`, `AUTH_BITBUCKET_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Bitbucket](https://authjs.dev/reference/core/providers/bitbucket)
 * @see https://developer.atlassian.com/cloud/bitbucket/oauth-2/
 * @see https://developer.atlassian.com/cloud/bitbucket/rest/api-group-users/#api-user-get
 */
export default function Bitbucket<P extends BitbucketProfile = BitbucketProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "bitbucket",
    name: "Bitbucket",
    type: "oauth",
    authorization: {
      url: "https://bitbucket.org/site/oauth2/authorize",
      params: { scope: "account" },
    },
    token: "https://bitbucket.org/site/oauth2/access_token",
    userinfo: "https://api.bitbucket.org/2.0/user",
    profile(profile) {
      return {
        id: profile.account_id,
        name: profile.display_name ?? profile.username ?? null,
        email: null,
        image: profile.links?.avatar?.href ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#205081" },
    options: endpointUrlsAsObjects(options),
  }
}
