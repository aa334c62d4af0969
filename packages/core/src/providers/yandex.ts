/**
 * Sign in with Yandex ID (OAuth 2.0).
 *
 * Register an app at oauth.yandex.com with the web platform and
 * `https://<your app>/auth/callback/yandex` as its redirect URI, and the
 * `login:info`, `login:email` and `login:avatar` accesses.
 * `clientId`/`clientSecret` default to `AUTH_YANDEX_ID`/`AUTH_YANDEX_SECRET`.
 *
 * @example
 * ```ts
 * import Yandex from "@tessera/core/providers/yandex"
 * Yandex({ clientId: process.env.AUTH_YANDEX_ID, clientSecret: process.env.AUTH_YANDEX_SECRET })
 * ```
 *
 * The profile is `GET login.yandex.ru/info?format=json`; the name is
 * `display_name` (or the real or first name); the image is built from
 * `default_avatar_id` unless `is_avatar_empty`.
 *
 * Verified e-mail: none. `default_email` and `emails` come with no flag saying
 * Yandex verified them.
 * @see https://yandex.com/dev/id/doc/en/codes/code-url
 * @see https://yandex.com/dev/id/doc/en/user-information
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /info?format=json` (with the default accesses). */
export interface YandexProfile {
  id: string
  login: string
  client_id: string
  psuid: string
  emails?: string[]
  default_email?: string
  is_avatar_empty?: boolean
  default_avatar_id?: string
  birthday?: string | null
  first_name?: string
  last_name?: string
  display_name?: string
  real_name?: string
  sex?: "male" | "female" | null
  default_phone?: { id: number; number: string }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Yandex ID (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_YANDEX_ID`, `AUTH_YANDEX_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Yandex](https://authjs.dev/reference/core/providers/yandex)
 * @see https://yandex.com/dev/id/doc/en/codes/code-url
 * @see https://yandex.com/dev/id/doc/en/user-information
 */
export default function Yandex<P extends YandexProfile = YandexProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "yandex",
    name: "Yandex",
    type: "oauth",
    authorization: {
      url: "https://oauth.yandex.ru/authorize",
      params: { scope: "login:info login:email login:avatar" },
    },
    token: "https://oauth.yandex.ru/token",
    userinfo: { url: "https://login.yandex.ru/info", params: { format: "json" } },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.display_name ?? profile.real_name ?? profile.first_name ?? null,
        email: profile.default_email ?? profile.emails?.[0] ?? null,
        image:
          !profile.is_avatar_empty && profile.default_avatar_id
            ? `https://avatars.yandex.net/get-yapic/${profile.default_avatar_id}/islands-200`
            : null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#ffcc00" },
    options: endpointUrlsAsObjects(options),
  }
}
