/**
 * Sign in with the Concept2 Logbook (OAuth 2.0).
 *
 * Register an application in the Concept2 Logbook (Edit Profile ->
 * Applications) with `https://<your app>/auth/callback/concept2` as its
 * redirect URI. `clientId`/`clientSecret` default to
 * `AUTH_CONCEPT2_ID`/`AUTH_CONCEPT2_SECRET`.
 *
 * @example
 * ```ts
 * import Concept2 from "@tessera/core/providers/concept2"
 * Concept2({ clientId: process.env.CONCEPT2_ID, clientSecret: process.env.CONCEPT2_SECRET })
 * ```
 *
 * Concept2's own ways: its scopes are separated by commas
 * (`user:read,results:write`, as Auth.js asks for), and the user of
 * `GET /api/users/me` is inside `data`, with a numeric id.
 *
 * Verified e-mail: none. `data.email` comes with no flag saying Concept2
 * verified it.
 * @see https://log.concept2.com/developers/documentation/#authentication
 * @see https://log.concept2.com/developers/documentation/#logbook-users-get
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** `GET /api/users/me`: the user, under `data`. */
export interface Concept2Profile {
  data: {
    id: number
    username: string
    first_name: string
    last_name: string
    gender: string
    dob: string
    email: string
    country: string
    profile_image: string | null
    age_restricted: boolean
    email_permission: boolean | null
    max_heart_rate: number | null
    weight: number | null
    logbook_privacy: string | null
    [field: string]: ProviderClaim
  }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Concept2 (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_CONCEPT2_ID`,
 *   `AUTH_CONCEPT2_SECRET`), and any option of the generic OAuth provider to override
 *   (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Concept2](https://authjs.dev/reference/core/providers/concept2)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Concept2<P extends Concept2Profile = Concept2Profile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "concept2",
    name: "Concept2",
    type: "oauth",
    authorization: {
      url: "https://log.concept2.com/oauth/authorize",
      params: { scope: "user:read,results:write" },
    },
    token: "https://log.concept2.com/oauth/access_token",
    userinfo: "https://log.concept2.com/api/users/me",
    profile(profile) {
      return {
        id: idText(profile.data.id),
        name: profile.data.username ?? null,
        email: profile.data.email ?? null,
        image: profile.data.profile_image ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#003a70" },
    options: endpointUrlsAsObjects(options),
  }
}
