/**
 * Sign in with Instagram (Instagram Basic Display API, OAuth 2.0).
 *
 * Add Instagram Basic Display to your Meta app, with
 * `https://<your app>/auth/callback/instagram` as a valid OAuth redirect URI.
 * `clientId`/`clientSecret` (Instagram App ID and secret) default to
 * `AUTH_INSTAGRAM_ID`/`AUTH_INSTAGRAM_SECRET`. Meta has retired the Basic
 * Display API for new apps; the same flow serves "Instagram API with Instagram
 * Login" once you pass its endpoints and scopes.
 *
 * @example
 * ```ts
 * import Instagram from "@tessera/core/providers/instagram"
 * Instagram({ clientId: process.env.AUTH_INSTAGRAM_ID, clientSecret: process.env.AUTH_INSTAGRAM_SECRET })
 * ```
 *
 * Instagram's own ways, handled here: the token response is
 * `{ access_token, user_id }` with no `token_type` (its tokens are bearer
 * tokens); the client secret goes in the request body; the profile is
 * `GET graph.instagram.com/me?fields=id,username,account_type,name`, with no
 * picture and no e-mail.
 *
 * Verified e-mail: none; Instagram shares no e-mail address.
 * @see https://developers.facebook.com/docs/instagram-basic-display-api/guides/getting-access-tokens-and-permissions
 * @see https://developers.facebook.com/docs/instagram-basic-display-api/reference/me
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  withBearerTokenType,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The user from `GET /me?fields=id,username,account_type,name`. */
export interface InstagramProfile {
  id: string
  username: string
  account_type?: "BUSINESS" | "MEDIA_CREATOR" | "PERSONAL"
  name?: string
  media_count?: number
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Instagram (Instagram Basic Display API, OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_INSTAGRAM_ID`, `AUTH_INSTAGRAM_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Instagram](https://authjs.dev/reference/core/providers/instagram)
 * @see https://developers.facebook.com/docs/instagram-basic-display-api/guides/getting-access-tokens-and-permissions
 * @see https://developers.facebook.com/docs/instagram-basic-display-api/reference/me
 */
export default function Instagram<P extends InstagramProfile = InstagramProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "instagram",
    name: "Instagram",
    type: "oauth",
    authorization: {
      url: "https://api.instagram.com/oauth/authorize",
      params: { scope: "user_profile" },
    },
    token: { url: "https://api.instagram.com/oauth/access_token", conform: withBearerTokenType },
    userinfo: {
      url: "https://graph.instagram.com/me",
      params: { fields: "id,username,account_type,name" },
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return { id: profile.id, name: profile.username ?? null, email: null, image: null }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#e1306c" },
    options: endpointUrlsAsObjects(options),
  }
}
