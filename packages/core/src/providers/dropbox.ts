/**
 * Sign in with Dropbox (OAuth 2.0).
 *
 * Add `https://<your app>/auth/callback/dropbox` as a redirect URI of your app
 * in the Dropbox App Console, with the `account_info.read` permission.
 * `clientId`/`clientSecret` (App key and App secret) default to
 * `AUTH_DROPBOX_ID`/`AUTH_DROPBOX_SECRET`.
 *
 * @example
 * ```ts
 * import Dropbox from "@tessera/core/providers/dropbox"
 * Dropbox({ clientId: process.env.AUTH_DROPBOX_ID, clientSecret: process.env.AUTH_DROPBOX_SECRET })
 * ```
 *
 * Dropbox's own ways, handled here: the authorization asks for
 * `token_access_type=offline` (a refresh token) and the scope
 * `account_info.read`; the profile is an RPC call, `POST
 * /2/users/get_current_account` with no body; the name is `name.display_name`.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://developers.dropbox.com/oauth-guide
 * @see https://www.dropbox.com/developers/documentation/http/documentation#users-get_current_account
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  requestUserinfo,
  type OAuthConfig,
  type OAuthUserConfig,
  type UserinfoRequestContext,
  type ProviderClaim,
} from "./oauth.js"

/** The account from `POST /2/users/get_current_account`. */
export interface DropboxProfile {
  account_id: string
  name: {
    given_name: string
    surname: string
    familiar_name: string
    display_name: string
    abbreviated_name: string
  }
  email: string
  email_verified: boolean
  disabled: boolean
  locale: string
  referral_link: string
  is_paired: boolean
  account_type: { ".tag": "basic" | "pro" | "business" }
  profile_photo_url?: string
  country?: string
  team?: { id: string; name: string }
  [claim: string]: ProviderClaim
}

/** Dropbox's RPC endpoints are POSTs without a body. */
function requestAccount(context: UserinfoRequestContext) {
  return requestUserinfo(context, { method: "POST" })
}

/**
 * Sign in with Dropbox (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_DROPBOX_ID`, `AUTH_DROPBOX_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Dropbox](https://authjs.dev/reference/core/providers/dropbox)
 * @see https://developers.dropbox.com/oauth-guide
 * @see https://www.dropbox.com/developers/documentation/http/documentation#users-get_current_account
 */
export default function Dropbox<P extends DropboxProfile = DropboxProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "dropbox",
    name: "Dropbox",
    type: "oauth",
    authorization: {
      url: "https://www.dropbox.com/oauth2/authorize",
      params: { token_access_type: "offline", scope: "account_info.read" },
    },
    token: "https://api.dropboxapi.com/oauth2/token",
    userinfo: {
      url: "https://api.dropboxapi.com/2/users/get_current_account",
      request: requestAccount,
    },
    profile(profile) {
      return {
        id: profile.account_id,
        name: profile.name?.display_name ?? null,
        email: profile.email ?? null,
        image: profile.profile_photo_url ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#0061fe" },
    options: endpointUrlsAsObjects(options),
  }
}
