/**
 * Sign in with X (Twitter), OAuth 2.0 with PKCE.
 *
 * In the X developer portal, turn on OAuth 2.0 for your app as a confidential
 * client ("Web App") and add `https://<your app>/auth/callback/twitter` as a
 * callback URI. `clientId`/`clientSecret` (the OAuth 2.0 Client ID and Secret,
 * not the API key) default to `AUTH_TWITTER_ID`/`AUTH_TWITTER_SECRET`.
 *
 * @example
 * ```ts
 * import Twitter from "@tessera/core/providers/twitter"
 * Twitter({ clientId: process.env.AUTH_TWITTER_ID, clientSecret: process.env.AUTH_TWITTER_SECRET })
 * // The user's confirmed e-mail (needs the users.email scope for your app):
 * Twitter({
 *   authorization: { params: { scope: "users.read tweet.read offline.access users.email" } },
 *   userinfo: "https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email",
 * })
 * ```
 *
 * X's own ways, handled here: PKCE (S256) and `state` are both required; the
 * client authenticates with HTTP Basic (`client_secret_basic`); the user is
 * `GET /2/users/me`, wrapped as `{ data: { id, name, username, ... } }`, with
 * only the fields asked for in `user.fields` (`profile_image_url` by default).
 *
 * Verified e-mail: `data.confirmed_email`, which X returns (with the
 * `users.email` scope and `user.fields=confirmed_email`) only for an address the
 * user confirmed; none by default.
 * @see https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code
 * @see https://docs.x.com/x-api/users/user-lookup-me
 * @module
 */
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"

/** `GET /2/users/me`: the user in `data`, with the fields asked for. */
export interface TwitterProfile {
  data: {
    id: string
    name: string
    username: string
    /** With `user.fields=confirmed_email` and the `users.email` scope. */
    confirmed_email?: string
    /** @deprecated X's v1.1 name; v2 sends `confirmed_email`. */
    email?: string
    location?: string
    entities?: {
      url?: {
        urls: Array<{
          start: number
          end: number
          url: string
          expanded_url: string
          display_url: string
        }>
      }
      description?: { hashtags?: Array<{ start: number; end: number; tag: string }> }
    }
    verified?: boolean
    verified_type?: string
    description?: string
    url?: string
    profile_image_url?: string
    protected?: boolean
    pinned_tweet_id?: string
    created_at?: string
  }
  includes?: { tweets?: Array<{ id: string; text: string }> }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with X (Twitter), OAuth 2.0 with PKCE.
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_TWITTER_ID`, `AUTH_TWITTER_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Twitter](https://authjs.dev/reference/core/providers/twitter)
 * @see https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code
 * @see https://docs.x.com/x-api/users/user-lookup-me
 */
export default function Twitter<P extends TwitterProfile = TwitterProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "twitter",
    name: "Twitter",
    type: "oauth",
    authorization: {
      url: "https://x.com/i/oauth2/authorize",
      params: { scope: "users.read tweet.read offline.access" },
    },
    token: "https://api.x.com/2/oauth2/token",
    userinfo: {
      url: "https://api.x.com/2/users/me",
      params: { "user.fields": "profile_image_url" },
    },
    checks: ["pkce", "state"],
    profile({ data }) {
      return {
        id: data.id,
        name: data.name ?? data.username,
        email: data.confirmed_email ?? data.email ?? null,
        image: data.profile_image_url ?? null,
      }
    },
    verifiedEmail: ({ data }) => data.confirmed_email ?? null,
    style: { brandColor: "#1da1f2" },
    options: endpointUrlsAsObjects(options),
  }
}
