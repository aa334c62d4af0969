/**
 * Sign in with Wikimedia (Wikipedia and sister projects; MediaWiki OAuth 2.0).
 *
 * Propose an OAuth 2.0 consumer at
 * meta.wikimedia.org/wiki/Special:OAuthConsumerRegistration/propose/oauth2 with
 * `https://<your app>/auth/callback/wikimedia` as the callback URL, and the
 * "User identity verification only, with access to real name and email address"
 * grant for e-mail. `clientId`/`clientSecret` default to
 * `AUTH_WIKIMEDIA_ID`/`AUTH_WIKIMEDIA_SECRET`.
 *
 * @example
 * ```ts
 * import Wikimedia from "@tessera/core/providers/wikimedia"
 * Wikimedia({ clientId: process.env.AUTH_WIKIMEDIA_ID, clientSecret: process.env.AUTH_WIKIMEDIA_SECRET })
 * ```
 *
 * No `scope` parameter is sent (the consumer's grants apply). The profile is
 * `GET /w/rest.php/oauth2/resource/profile`; `sub` is the central user id.
 *
 * Verified e-mail: `email` when `confirmed_email` is true (the user confirmed
 * the address with MediaWiki).
 * @see https://www.mediawiki.org/wiki/OAuth/For_Developers#OAuth_2
 * @see https://api.wikimedia.org/wiki/Authentication#Identifying_users
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /oauth2/resource/profile`. */
export interface WikimediaProfile {
  sub: string
  username: string
  editcount: number
  confirmed_email: boolean
  blocked: boolean
  registered: string
  groups: string[]
  rights: string[]
  grants: string[]
  /** With the identity grant that includes the real name and e-mail. */
  realname?: string
  email?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Wikimedia (Wikipedia and sister projects; MediaWiki OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_WIKIMEDIA_ID`, `AUTH_WIKIMEDIA_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Wikimedia](https://authjs.dev/reference/core/providers/wikimedia)
 * @see https://www.mediawiki.org/wiki/OAuth/For_Developers#OAuth_2
 * @see https://api.wikimedia.org/wiki/Authentication#Identifying_users
 */
export default function Wikimedia<P extends WikimediaProfile = WikimediaProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "wikimedia",
    name: "Wikimedia",
    type: "oauth",
    authorization: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
    token: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    userinfo: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    profile(profile) {
      return {
        id: idText(profile.sub),
        name: profile.username ?? null,
        email: profile.email ?? null,
        image: null,
      }
    },
    verifiedEmail: (profile) =>
      profile.confirmed_email === true && profile.email ? profile.email : null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
