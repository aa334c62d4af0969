/**
 * Sign in with Facebook (Facebook Login, OAuth 2.0).
 *
 * Add `https://<your app>/auth/callback/facebook` to the Valid OAuth Redirect
 * URIs of your Meta app. `clientId`/`clientSecret` (the App ID and App Secret)
 * default to `AUTH_FACEBOOK_ID`/`AUTH_FACEBOOK_SECRET`.
 *
 * @example
 * ```ts
 * import Facebook from "@tessera/core/providers/facebook"
 * Facebook({ clientId: process.env.FACEBOOK_ID, clientSecret: process.env.FACEBOOK_SECRET })
 * ```
 *
 * Facebook's own ways, handled here: the Graph API returns only the fields
 * asked for (`fields=id,name,email,picture`), the picture nested as
 * `picture.data.url`; the code flow has no PKCE, so the check is `state`; the
 * App Secret goes in the request body. The API version is your app's default
 * (pass versioned endpoint URLs to pin one).
 * Verified e-mail: none. The Graph API's `email` is "the primary email address
 * listed on their profile", absent when no valid address is available, with
 * no flag saying Facebook verified it.
 * @see https://developers.facebook.com/docs/graph-api/reference/user
 * @see https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /me?fields=id,name,email,picture`. */
export interface FacebookProfile {
  id: string
  name: string
  /** Absent when the user has no confirmed e-mail or declined the scope. */
  email?: string
  picture: { data: { height: number; width: number; is_silhouette: boolean; url: string } }
  first_name?: string
  last_name?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Facebook (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_FACEBOOK_ID`,
 *   `AUTH_FACEBOOK_SECRET`), and any
 *   option of the generic OAuth provider to override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Facebook](https://authjs.dev/reference/core/providers/facebook)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Facebook<P extends FacebookProfile = FacebookProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "facebook",
    name: "Facebook",
    type: "oauth",
    authorization: { url: "https://www.facebook.com/dialog/oauth", params: { scope: "email" } },
    token: "https://graph.facebook.com/oauth/access_token",
    // Facebook issues no refresh tokens (long-lived tokens come from its own exchange).
    tokenRefresh: false,
    userinfo: { url: "https://graph.facebook.com/me", params: { fields: "id,name,email,picture" } },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: profile.id,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture?.data?.url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#0866ff" },
    options: endpointUrlsAsObjects(options),
  }
}
