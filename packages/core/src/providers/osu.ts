/** The fields of osu!'s `UserCompact`, which every profile has (Auth.js's name). */
export type OsuUserCompact = Pick<
  OsuProfile,
  | "avatar_url"
  | "country_code"
  | "default_group"
  | "id"
  | "is_active"
  | "is_bot"
  | "is_deleted"
  | "is_online"
  | "is_supporter"
  | "last_visit"
  | "pm_friends_only"
  | "profile_colour"
  | "username"
>

/**
 * Sign in with osu! (OAuth 2.0, API v2).
 *
 * Register an OAuth application in your osu! account settings with
 * `https://<your app>/auth/callback/osu` as its callback URL.
 * `clientId`/`clientSecret` default to `AUTH_OSU_ID`/`AUTH_OSU_SECRET`.
 *
 * @example
 * ```ts
 * import Osu from "@tessera/core/providers/osu"
 * Osu({ clientId: process.env.AUTH_OSU_ID, clientSecret: process.env.AUTH_OSU_SECRET })
 * ```
 *
 * The scope is `identify`; the profile is `GET /api/v2/me`, with a numeric id
 * stored as a string.
 *
 * Verified e-mail: none; osu! shares no e-mail address.
 * @see https://osu.ppy.sh/docs/index.html#authorization-code-grant
 * @see https://osu.ppy.sh/docs/index.html#get-own-data
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /api/v2/me` (the common fields). */
export interface OsuProfile {
  id: number
  username: string
  avatar_url: string
  country_code: string
  default_group: string
  is_active: boolean
  is_bot: boolean
  is_deleted: boolean
  is_online: boolean
  is_supporter: boolean
  last_visit: string | null
  pm_friends_only: boolean
  profile_colour: string | null
  cover_url?: string
  discord?: string | null
  has_supported?: boolean
  join_date?: string
  location?: string | null
  playmode?: string
  country?: { code: string; name: string }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with osu! (OAuth 2.0, API v2).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_OSU_ID`, `AUTH_OSU_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Osu](https://authjs.dev/reference/core/providers/osu)
 * @see https://osu.ppy.sh/docs/index.html#authorization-code-grant
 * @see https://osu.ppy.sh/docs/index.html#get-own-data
 */
export default function Osu<P extends OsuProfile = OsuProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "osu",
    name: "osu!",
    type: "oauth",
    authorization: { url: "https://osu.ppy.sh/oauth/authorize", params: { scope: "identify" } },
    token: "https://osu.ppy.sh/oauth/token",
    userinfo: "https://osu.ppy.sh/api/v2/me",
    profile(profile) {
      return {
        id: idText(profile.id),
        name: profile.username ?? null,
        email: null,
        image: profile.avatar_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#ff66aa" },
    options: endpointUrlsAsObjects(options),
  }
}
