/**
 * Sign in with Strava (OAuth 2.0).
 *
 * In your Strava API application settings, set the Authorization Callback
 * Domain to your app's host (Strava checks the domain of
 * `https://<your app>/auth/callback/strava`). `clientId`/`clientSecret` default
 * to `AUTH_STRAVA_ID`/`AUTH_STRAVA_SECRET`.
 *
 * @example
 * ```ts
 * import Strava from "@tessera/core/providers/strava"
 * Strava({ clientId: process.env.AUTH_STRAVA_ID, clientSecret: process.env.AUTH_STRAVA_SECRET })
 * // More scopes: Strava separates them with commas, not spaces.
 * Strava({ authorization: { params: { scope: "read,activity:read_all" } } })
 * ```
 *
 * Strava's own ways: scopes are comma-separated (default `read`), and the
 * granted ones come back as a `scope` parameter of the callback, not in the
 * token response; `approval_prompt=auto` skips the consent screen when already
 * granted; the client secret goes in the request body; the token response
 * carries the athlete too. The profile is `GET /api/v3/athlete`; the id is a
 * number, stored as a string.
 *
 * Verified e-mail: none; Strava shares no e-mail address.
 * @see https://developers.strava.com/docs/authentication/
 * @see https://developers.strava.com/docs/reference/#api-Athletes-getLoggedInAthlete
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The athlete from `GET /api/v3/athlete` (summary fields). */
export interface StravaProfile {
  id: number
  username: string | null
  resource_state: number
  firstname: string
  lastname: string
  bio?: string | null
  city: string | null
  state: string | null
  country: string | null
  sex: "M" | "F" | null
  premium?: boolean
  summit?: boolean
  created_at: string
  updated_at: string
  badge_type_id?: number
  weight?: number | null
  /** The large profile picture URL. */
  profile: string
  profile_medium: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Strava (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_STRAVA_ID`, `AUTH_STRAVA_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Strava](https://authjs.dev/reference/core/providers/strava)
 * @see https://developers.strava.com/docs/authentication/
 * @see https://developers.strava.com/docs/reference/#api-Athletes-getLoggedInAthlete
 */
export default function Strava<P extends StravaProfile = StravaProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "strava",
    name: "Strava",
    type: "oauth",
    authorization: {
      url: "https://www.strava.com/api/v3/oauth/authorize",
      params: { scope: "read", approval_prompt: "auto" },
    },
    token: "https://www.strava.com/api/v3/oauth/token",
    userinfo: "https://www.strava.com/api/v3/athlete",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const name = [profile.firstname, profile.lastname].filter(Boolean).join(" ")
      return {
        id: idText(profile.id),
        // Auth.js's `${firstname} ${lastname}` reads "undefined undefined" for an athlete without them.
        name: name || profile.username || null,
        email: null,
        image: profile.profile ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#fc4c02" },
    options: endpointUrlsAsObjects(options),
  }
}
