/**
 * Sign in with Dribbble (OAuth 2.0).
 *
 * Register an application at https://dribbble.com/account/applications with
 * `https://<your app>/auth/callback/dribbble` as its callback URL.
 * `clientId`/`clientSecret` default to `AUTH_DRIBBBLE_ID`/`AUTH_DRIBBBLE_SECRET`.
 *
 * @example
 * ```ts
 * import Dribbble from "@tessera/core/providers/dribbble"
 * Dribbble({ clientId: process.env.DRIBBBLE_ID, clientSecret: process.env.DRIBBBLE_SECRET })
 * // To upload shots as the user:
 * Dribbble({ scope: "public upload" })
 * ```
 *
 * The `scope` option is the authorization's scope; without it none is sent,
 * and Dribbble grants `public`. The user is `GET https://api.dribbble.com/v2/user`
 * (numeric id).
 *
 * Verified e-mail: none. Dribbble's user object carries no flag saying the
 * address (when there is one) was verified.
 * @see https://developer.dribbble.com/v2/oauth/
 * @see https://developer.dribbble.com/v2/user/
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /v2/user`. */
export interface DribbbleProfile {
  id: number
  name: string
  login: string
  html_url: string
  avatar_url: string | null
  bio: string
  location: string | null
  links: Record<string, string>
  can_upload_shot: boolean
  pro: boolean
  followers_count: number
  created_at: string
  type: "Player" | "Team"
  teams: Array<Record<string, ProviderClaim>>
  email?: string | null
  [claim: string]: ProviderClaim
}

export interface DribbbleOptions<P> extends OAuthUserConfig<P> {
  /** The scope asked for: `public` (Dribbble's default) or `public upload`. */
  scope?: "public" | "public upload"
}

/**
 * Sign in with Dribbble (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_DRIBBBLE_ID`,
 *   `AUTH_DRIBBBLE_SECRET`), `scope`, and any option of the generic OAuth provider to override
 *   (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Dribbble](https://authjs.dev/reference/core/providers/dribbble)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Dribbble<P extends DribbbleProfile = DribbbleProfile>(
  options: DribbbleOptions<P> = {},
): OAuthConfig<P> {
  const { scope, ...rest } = options
  return {
    id: "dribbble",
    name: "Dribbble",
    type: "oauth",
    authorization: {
      url: "https://dribbble.com/oauth/authorize",
      ...(scope ? { params: { scope } } : {}),
    },
    token: "https://dribbble.com/oauth/token",
    userinfo: "https://api.dribbble.com/v2/user",
    profile(profile) {
      return {
        id: idText(profile.id),
        name: profile.name ?? profile.login ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#ea4c89" },
    options: endpointUrlsAsObjects(rest),
  }
}
