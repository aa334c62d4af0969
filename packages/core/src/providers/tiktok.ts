/**
 * Sign in with TikTok (Login Kit for Web, OAuth 2.0).
 *
 * Add Login Kit to your app in the TikTok developer portal, with
 * `https://<your app>/auth/callback/tiktok` as a redirect URI.
 * `clientId`/`clientSecret` (the Client key and Client secret) default to
 * `AUTH_TIKTOK_ID`/`AUTH_TIKTOK_SECRET`.
 *
 * @example
 * ```ts
 * import TikTok from "@tessera/core/providers/tiktok"
 * TikTok({ clientId: process.env.AUTH_TIKTOK_ID, clientSecret: process.env.AUTH_TIKTOK_SECRET })
 * // or, with AUTH_TIKTOK_ID/_SECRET set: providers: [TikTok]
 * ```
 *
 * TikTok's own ways, handled here:
 * - The client id is called `client_key`: it is sent as `client_key` in the
 *   authorization URL (from `clientId` as given to the factory, so pass it there
 *   or list the bare factory, which `setEnvDefaults` calls with
 *   `AUTH_TIKTOK_ID`) and, with the secret, in the token request's body.
 * - The scope is `user.info.basic`; the profile is `GET /v2/user/info/` with the
 *   fields asked for (`open_id,avatar_url,display_name`), wrapped as
 *   `{ data: { user }, error: { code } }`; a `code` other than `ok` is an error.
 * - Token errors are `{ error, error_description, log_id }`, and are reported.
 *
 * Verified e-mail: none; TikTok shares no e-mail address.
 * @see https://developers.tiktok.com/doc/login-kit-web
 * @see https://developers.tiktok.com/doc/oauth-user-access-token-management
 * @see https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import {
  requestTokens,
  requestUserinfo,
  type OAuthConfig,
  type OAuthUserConfig,
  type TokenRefreshContext,
  type TokenRequestContext,
  type TokenSet,
  type UserinfoRequestContext,
  type ProviderClaim,
} from "./oauth.js"

/** `GET /v2/user/info/`: the user in `data.user`, with the fields asked for. */
export interface TikTokProfile {
  data: {
    user: {
      /** The user's id for this app. */
      open_id: string
      /** The user's id across the apps of one developer. */
      union_id?: string
      avatar_url?: string
      avatar_url_100?: string
      avatar_large_url?: string
      display_name?: string
      username?: string
      bio_description?: string
      profile_deep_link?: string
      is_verified?: boolean
      follower_count?: number
      following_count?: number
      likes_count?: number
      video_count?: number
    }
  }
  error: { code: string; message: string; log_id: string }
  [claim: string]: ProviderClaim
}

/** Auth.js's spelling of {@link TikTokProfile}. */
export type TiktokProfile = TikTokProfile

function requestToken(context: TokenRequestContext) {
  const { clientId, clientSecret } = context.provider
  return requestTokens(context, {
    body: { client_key: clientId ?? "", client_secret: clientSecret ?? "" },
  })
}

/**
 * TikTok's refresh: the client's `client_key` (not `client_id`) and secret in the
 * body, like its code exchange; it rotates the refresh token.
 */
async function refreshTikTokToken(context: TokenRefreshContext): Promise<TokenSet> {
  const { provider, refreshToken } = context
  const response = await context.fetch(provider.token?.url ?? "", {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_key: provider.clientId ?? "",
      client_secret: provider.clientSecret ?? "",
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    }),
  })
  const tokens = (await response.json().catch(() => ({}))) as TokenSet
  // `invalid_grant` is TikTok's refusal: the refresh token is no good any more.
  if (tokens.error === "invalid_grant") return tokens
  if (!response.ok || tokens.error !== undefined)
    throw new Error(`TikTok: the token refresh answered ${response.status}`)
  return tokens
}

/** The fields asked for, then `error.code`: anything but `ok` is an error, whatever the status. */
async function requestUser(context: UserinfoRequestContext): Promise<Profile> {
  const { userinfo } = context.provider
  const url = new URL(userinfo?.url ?? "")
  for (const [key, value] of Object.entries(userinfo?.params ?? {}))
    url.searchParams.set(key, String(value))
  const body = await requestUserinfo(context, { url })
  const code = (body as Partial<TikTokProfile>).error?.code
  if (code !== undefined && code !== "ok") throw new Error(`TikTok: /v2/user/info/ error ${code}`)
  return body
}

/**
 * Sign in with TikTok (Login Kit for Web, OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_TIKTOK_ID`, `AUTH_TIKTOK_SECRET`), and any OAuth option to override.
 * @see [Auth.js: TikTok](https://authjs.dev/reference/core/providers/tiktok)
 * @see https://developers.tiktok.com/doc/login-kit-web
 * @see https://developers.tiktok.com/doc/oauth-user-access-token-management
 */
export default function TikTok<P extends TikTokProfile = TikTokProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "tiktok",
    name: "TikTok",
    type: "oauth",
    authorization: {
      url: "https://www.tiktok.com/v2/auth/authorize",
      params: { client_key: options.clientId, scope: "user.info.basic" },
    },
    token: { url: "https://open.tiktokapis.com/v2/oauth/token/", request: requestToken },
    tokenRefresh: { request: refreshTikTokToken },
    userinfo: {
      url: "https://open.tiktokapis.com/v2/user/info/",
      params: { fields: "open_id,avatar_url,display_name" },
      request: requestUser,
    },
    profile({ data }) {
      return {
        id: data.user.open_id,
        name: data.user.display_name ?? data.user.username ?? null,
        email: null,
        image: data.user.avatar_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
