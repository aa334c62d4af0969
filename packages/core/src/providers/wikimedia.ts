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

/**
 * A user group on a Wikimedia wiki: the usual ones, and any other a wiki defines (the list is
 * open, so an unknown group still type-checks).
 */
export type WikimediaGroup =
  | "*"
  | "user"
  | "autoconfirmed"
  | "extendedconfirmed"
  | "bot"
  | "sysop"
  | "bureaucrat"
  | "steward"
  | "accountcreator"
  | "import"
  | "transwiki"
  | "ipblock-exempt"
  | "oversight"
  | "rollbacker"
  | "propertycreator"
  | "wikidata-staff"
  | "flood"
  | "translationadmin"
  | "confirmed"
  | "flow-bot"
  | "checkuser"
  | (string & {})

/** A grant the user gave the OAuth consumer (open, as {@link WikimediaGroup}). */
export type WikimediaGrant =
  | "basic"
  | "blockusers"
  | "checkuser"
  | "createaccount"
  | "delete"
  | "editinterface"
  | "editmycssjs"
  | "editmyoptions"
  | "editmywatchlist"
  | "editpage"
  | "editprotected"
  | "editsiteconfig"
  | "globalblock"
  | "highvolume"
  | "import"
  | "mergehistory"
  | "oath"
  | "oversight"
  | "patrol"
  | "privateinfo"
  | "protect"
  | "rollback"
  | "sendemail"
  | "shortenurls"
  | "uploadfile"
  | "viewdeleted"
  | "viewmywatchlist"
  | (string & {})

/**
 * A user right on the wiki (MediaWiki's `$wgGroupPermissions` names; open, as
 * {@link WikimediaGroup}: extensions add their own).
 */
export type WikimediaRight =
  | "apihighlimits"
  | "autoconfirmed"
  | "autopatrol"
  | "block"
  | "bot"
  | "createaccount"
  | "createpage"
  | "createtalk"
  | "delete"
  | "edit"
  | "editinterface"
  | "editmyoptions"
  | "editmywatchlist"
  | "editprotected"
  | "editsemiprotected"
  | "import"
  | "ipblock-exempt"
  | "minoredit"
  | "move"
  | "patrol"
  | "protect"
  | "read"
  | "rollback"
  | "sendemail"
  | "undelete"
  | "upload"
  | "viewmywatchlist"
  | "writeapi"
  | (string & {})

/** The user from `GET /oauth2/resource/profile`. */
export interface WikimediaProfile {
  sub: string
  username: string
  editcount: number
  confirmed_email: boolean
  blocked: boolean
  registered: string
  groups: WikimediaGroup[]
  rights: WikimediaRight[]
  grants: WikimediaGrant[]
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
