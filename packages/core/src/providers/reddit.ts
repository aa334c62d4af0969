/**
 * Sign in with Reddit (OAuth 2.0).
 *
 * Create a "web app" at reddit.com/prefs/apps with
 * `https://<your app>/auth/callback/reddit` as its redirect URI (Reddit allows
 * one). `clientId`/`clientSecret` default to `AUTH_REDDIT_ID`/`AUTH_REDDIT_SECRET`.
 *
 * @example
 * ```ts
 * import Reddit from "@tessera/core/providers/reddit"
 * Reddit({ clientId: process.env.AUTH_REDDIT_ID, clientSecret: process.env.AUTH_REDDIT_SECRET })
 * // A refresh token, and your own User-Agent:
 * Reddit({
 *   authorization: { params: { duration: "permanent" } },
 *   userAgent: "web:com.acme.app:1.0.0 (by /u/acme)",
 * })
 * ```
 *
 * Reddit's own ways, handled here:
 * - Reddit asks every API client for a unique, descriptive `User-Agent`
 *   (`<platform>:<app id>:<version> (by /u/<user>)`) and throttles generic ones:
 *   it is sent on the token and profile requests (`userAgent`, default
 *   `web:<client id>:1.0`).
 * - The client authenticates with HTTP Basic; errors may come with status 200
 *   and `{ error }`, and are reported as errors.
 * - The check is `state` (Reddit has no PKCE); the scope `identity`.
 * - The image is `icon_img` (else `snoovatar_img`; Auth.js has none), which
 *   comes HTML-escaped (`&amp;`): it is unescaped.
 *
 * Verified e-mail: none. Reddit never sends the address (only
 * `has_verified_email`, a flag without an address).
 * @see https://github.com/reddit-archive/reddit/wiki/OAuth2
 * @see https://github.com/reddit-archive/reddit/wiki/API#rules
 * @see https://www.reddit.com/dev/api/#GET_api_v1_me
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  requestTokens,
  requestUserinfo,
  type OAuthConfig,
  type OAuthUserConfig,
  type TokenRequestContext,
  type UserinfoRequestContext,
  type ProviderClaim,
} from "./oauth.js"

/** The user from `GET /api/v1/me` (the fields used here, and the common ones). */
export interface RedditProfile {
  /** The account id (base 36), without the `t2_` prefix. */
  id: string
  name: string
  icon_img?: string
  snoovatar_img?: string
  has_verified_email?: boolean
  created_utc?: number
  total_karma?: number
  over_18?: boolean
  [claim: string]: ProviderClaim
}

export interface RedditOptions<P> extends OAuthUserConfig<P> {
  /** Sent as `User-Agent`. Default `web:<client id>:1.0`. */
  userAgent?: string
}

function userAgent(provider: { clientId?: string; userAgent?: unknown }): string {
  return typeof provider.userAgent === "string"
    ? provider.userAgent
    : `web:${provider.clientId ?? "tessera"}:1.0`
}

function requestToken(context: TokenRequestContext) {
  return requestTokens(context, {
    basic: true,
    headers: { "user-agent": userAgent(context.provider) },
  })
}

function requestProfile(context: UserinfoRequestContext) {
  return requestUserinfo(context, { headers: { "user-agent": userAgent(context.provider) } })
}

/**
 * Sign in with Reddit (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_REDDIT_ID`, `AUTH_REDDIT_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Reddit](https://authjs.dev/reference/core/providers/reddit)
 * @see https://github.com/reddit-archive/reddit/wiki/OAuth2
 * @see https://github.com/reddit-archive/reddit/wiki/API#rules
 */
export default function Reddit<P extends RedditProfile = RedditProfile>(
  options: RedditOptions<P> = {},
): OAuthConfig<P> {
  return {
    id: "reddit",
    name: "Reddit",
    type: "oauth",
    authorization: {
      url: "https://www.reddit.com/api/v1/authorize",
      params: { scope: "identity" },
    },
    token: { url: "https://www.reddit.com/api/v1/access_token", request: requestToken },
    userinfo: { url: "https://oauth.reddit.com/api/v1/me", request: requestProfile },
    checks: ["state"],
    profile(profile) {
      const icon = profile.icon_img || profile.snoovatar_img
      return {
        id: profile.id,
        name: profile.name,
        email: null,
        image: icon ? icon.replaceAll("&amp;", "&") : null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#ff4500" },
    options: endpointUrlsAsObjects(options),
  }
}
