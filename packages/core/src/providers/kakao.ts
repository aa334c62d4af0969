/**
 * Sign in with Kakao (Kakao Login, OAuth 2.0).
 *
 * In Kakao Developers, turn on Kakao Login for your app, add
 * `https://<your app>/auth/callback/kakao` as a Redirect URI, set the consent
 * items you need (nickname, profile image, e-mail), and turn on the Client
 * Secret under Security. `clientId` (the REST API key) and `clientSecret`
 * default to `AUTH_KAKAO_ID`/`AUTH_KAKAO_SECRET`.
 *
 * @example
 * ```ts
 * import Kakao from "@tessera/core/providers/kakao"
 * Kakao({ clientId: process.env.AUTH_KAKAO_ID, clientSecret: process.env.AUTH_KAKAO_SECRET })
 * ```
 *
 * Kakao's own ways: no `scope` parameter by default (the app's consent items
 * apply); the client secret goes in the request body; the profile is
 * `GET kapi.kakao.com/v2/user/me`, with the user nested under
 * `kakao_account.profile` and a numeric id, stored as a string.
 *
 * Verified e-mail: `kakao_account.email` only when both `is_email_valid` and
 * `is_email_verified` are true, as Kakao asks of services that mail the address
 * (an address can turn invalid when another account takes it).
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api#req-user-info
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

export type KakaoDateTime = string
export type KakaoAgeRange =
  | "1-9"
  | "10-14"
  | "15-19"
  | "20-29"
  | "30-39"
  | "40-49"
  | "50-59"
  | "60-69"
  | "70-79"
  | "80-89"
  | "90-"

export type KakaoGender = "female" | "male"
export type KakaoBirthdayType = "SOLAR" | "LUNAR"
/** Auth.js's names for the types above (`import type { AgeRange } from ".../providers/kakao"`). */
export type { KakaoDateTime as DateTime, KakaoAgeRange as AgeRange }
export type { KakaoGender as Gender, KakaoBirthdayType as Birthday }

/** The user from `GET /v2/user/me`. */
export interface KakaoProfile {
  id: number
  has_signed_up?: boolean
  connected_at?: KakaoDateTime
  synched_at?: KakaoDateTime
  properties?: {
    nickname?: string
    profile_image?: string
    thumbnail_image?: string
    [property: string]: unknown
  }
  kakao_account?: {
    profile_needs_agreement?: boolean
    profile_nickname_needs_agreement?: boolean
    profile_image_needs_agreement?: boolean
    profile?: {
      nickname?: string
      thumbnail_image_url?: string
      profile_image_url?: string
      is_default_image?: boolean
      is_default_nickname?: boolean
    }
    name_needs_agreement?: boolean
    name?: string
    email_needs_agreement?: boolean
    /** False when another account has taken the address since. */
    is_email_valid?: boolean
    is_email_verified?: boolean
    email?: string
    age_range_needs_agreement?: boolean
    age_range?: KakaoAgeRange
    birthyear_needs_agreement?: boolean
    birthyear?: string
    birthday_needs_agreement?: boolean
    birthday?: string
    birthday_type?: KakaoBirthdayType
    gender_needs_agreement?: boolean
    gender?: KakaoGender
    phone_number_needs_agreement?: boolean
    phone_number?: string
    ci_needs_agreement?: boolean
    ci?: string
    ci_authenticated_at?: KakaoDateTime
  }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Kakao (Kakao Login, OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_KAKAO_ID`, `AUTH_KAKAO_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Kakao](https://authjs.dev/reference/core/providers/kakao)
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api
 * @see https://developers.kakao.com/docs/latest/en/kakaologin/rest-api#req-user-info
 */
export default function Kakao<P extends KakaoProfile = KakaoProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "kakao",
    name: "Kakao",
    type: "oauth",
    authorization: "https://kauth.kakao.com/oauth/authorize",
    token: "https://kauth.kakao.com/oauth/token",
    userinfo: "https://kapi.kakao.com/v2/user/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const account = profile.kakao_account
      return {
        id: idText(profile.id),
        name: account?.profile?.nickname ?? profile.properties?.nickname ?? null,
        email: account?.email ?? null,
        image: account?.profile?.profile_image_url ?? null,
      }
    },
    verifiedEmail: ({ kakao_account: account }) =>
      account?.is_email_valid === true && account.is_email_verified === true && account.email
        ? account.email
        : null,
    style: { brandColor: "#fee500" },
    options: endpointUrlsAsObjects(options),
  }
}
