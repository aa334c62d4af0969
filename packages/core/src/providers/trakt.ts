/**
 * Sign in with Trakt (OAuth 2.0).
 *
 * Create an API app at trakt.tv (Settings, Your API Apps) with
 * `https://<your app>/auth/callback/trakt` as a redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_TRAKT_ID`/`AUTH_TRAKT_SECRET`.
 *
 * @example
 * ```ts
 * import Trakt from "@tessera/core/providers/trakt"
 * Trakt({ clientId: process.env.TRAKT_ID, clientSecret: process.env.TRAKT_SECRET })
 * ```
 *
 * Trakt's own ways, handled here:
 * - every API call names the API version and the app: the `trakt-api-version: 2`
 *   and `trakt-api-key: <client id>` headers, with the token, on `/users/me`;
 * - the user's id is `ids.slug`, as in Auth.js (so accounts made there are found);
 * - Trakt's avatars may not be hot-linked: `image` is the URL, fetch it yourself;
 * - Trakt has no scopes, and documents no PKCE: `state` is checked as well.
 *
 * Verified e-mail: none: Trakt shares no address.
 * @see https://trakt.docs.apiary.io/#reference/authentication-oauth
 * @see https://trakt.docs.apiary.io/#reference/users/profile/get-user-profile
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  requestUserinfo,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
  type UserinfoRequestContext,
} from "./oauth.js"

/** The user from `GET /users/me?extended=full`. */
export interface TraktUser {
  username: string
  private: boolean
  name: string | null
  vip: boolean
  vip_ep: boolean
  ids: { slug: string; uuid?: string }
  joined_at: string
  location: string | null
  about: string | null
  gender: string | null
  age: number | null
  images: { avatar: { full: string } }
  [claim: string]: ProviderClaim
}

/** {@link TraktUser} under the `<Name>Profile` name of the other providers. */
export type TraktProfile = TraktUser

/** `/users/me` with the token, and the API version and client id Trakt requires on every call. */
function requestUser(context: UserinfoRequestContext) {
  return requestUserinfo(context, {
    headers: {
      "trakt-api-version": "2",
      "trakt-api-key": context.provider.clientId ?? "",
    },
  })
}

/**
 * Sign in with Trakt (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_TRAKT_ID`, `AUTH_TRAKT_SECRET`),
 *   and any option of the generic OAuth provider to override.
 * @see [Auth.js: Trakt](https://authjs.dev/reference/core/providers/trakt)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Trakt<P extends TraktUser = TraktUser>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "trakt",
    name: "Trakt",
    type: "oauth",
    authorization: { url: "https://trakt.tv/oauth/authorize" },
    token: "https://api.trakt.tv/oauth/token",
    userinfo: { url: "https://api.trakt.tv/users/me?extended=full", request: requestUser },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: profile.ids.slug,
        name: profile.name || profile.username || null,
        email: null,
        image: profile.images?.avatar?.full ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#ed2224" },
    options: endpointUrlsAsObjects(options),
  }
}
