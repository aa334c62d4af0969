/**
 * Sign in with Foursquare (OAuth 2.0, the v2 user API).
 *
 * Create an app in the Foursquare developer console with
 * `https://<your app>/auth/callback/foursquare` as its redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_FOURSQUARE_ID`/`AUTH_FOURSQUARE_SECRET`.
 *
 * @example
 * ```ts
 * import Foursquare from "@tessera/core/providers/foursquare"
 * Foursquare({
 *   clientId: process.env.AUTH_FOURSQUARE_ID,
 *   clientSecret: process.env.AUTH_FOURSQUARE_SECRET,
 *   apiVersion: "20230131",
 * })
 * ```
 *
 * Foursquare's ways, handled here:
 * - The client id and secret go in the token request's body
 *   (`client_secret_post`), and the token response is `{ access_token }` alone,
 *   with no `token_type`: the token is read as a bearer token. `state` is sent
 *   and checked besides PKCE, which Foursquare does not document.
 * - The v2 API takes the token as the `oauth_token` query parameter, not as an
 *   `Authorization` header, and every request names the API version it was
 *   written for as `v=YYYYMMDD` (`apiVersion`, default `20230131`).
 * - `GET /v2/users/self` wraps the user as `{ meta, response: { user } }`; the
 *   name is first and last name, the image the photo's `prefix` + `original` +
 *   `suffix`.
 *
 * Verified e-mail: none. `contact.email` comes with no flag saying Foursquare verified it.
 * @see https://docs.foursquare.com/developer/reference/authentication
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import {
  requestUserinfo,
  withBearerTokenType,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
  type UserinfoRequestContext,
} from "./oauth.js"

/** The user of `GET /v2/users/self`, in `response.user`. */
export interface FoursquareUser {
  id: string
  firstName?: string
  lastName?: string
  gender?: string
  homeCity?: string
  photo?: { prefix: string; suffix: string }
  contact?: { email?: string; phone?: string; twitter?: string; facebook?: string }
  [field: string]: ProviderClaim
}

/** What `GET https://api.foursquare.com/v2/users/self` answers. */
export interface FoursquareProfile {
  meta: { code: number; requestId?: string }
  response: { user: FoursquareUser }
  [claim: string]: ProviderClaim
}

export interface FoursquareOptions<P> extends OAuthUserConfig<P> {
  /** The API version the requests are written for, `YYYYMMDD`. Default `20230131`. */
  apiVersion?: string
}

/** The v2 API wants the token as `oauth_token` in the query, and no bearer header. */
function requestSelf(context: UserinfoRequestContext): Promise<Profile> {
  const url = new URL(context.provider.userinfo!.url!)
  url.searchParams.set("oauth_token", String(context.tokens.access_token ?? ""))
  return requestUserinfo(context, { url, bearer: false })
}

/**
 * Sign in with Foursquare (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_FOURSQUARE_ID`, `AUTH_FOURSQUARE_SECRET`), `apiVersion`, and any OAuth option to override.
 * @see [Auth.js: Foursquare](https://authjs.dev/reference/core/providers/foursquare)
 * @see https://docs.foursquare.com/developer/reference/authentication
 */
export default function Foursquare<P extends FoursquareProfile = FoursquareProfile>(
  options: FoursquareOptions<P> = {},
): OAuthConfig<P> {
  const { apiVersion = "20230131", ...rest } = options
  return {
    id: "foursquare",
    name: "Foursquare",
    type: "oauth",
    authorization: "https://foursquare.com/oauth2/authenticate",
    token: { url: "https://foursquare.com/oauth2/access_token", conform: withBearerTokenType },
    userinfo: {
      url: `https://api.foursquare.com/v2/users/self?v=${encodeURIComponent(apiVersion)}`,
      request: requestSelf,
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      const user = profile.response.user
      const name = [user.firstName, user.lastName].filter(Boolean).join(" ")
      return {
        id: user.id,
        name: name || null,
        email: user.contact?.email ?? null,
        image: user.photo ? `${user.photo.prefix}original${user.photo.suffix}` : null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(rest),
  }
}
