/**
 * Sign in with Mastodon (OAuth 2.0), on one instance.
 *
 * Register an application on your instance (Preferences, Development, or
 * `POST /api/v1/apps`) with `https://<your app>/auth/callback/mastodon` as its
 * redirect URI and the `read` scope. `issuer` is the instance's URL, e.g.
 * `https://mastodon.social`. `clientId`, `clientSecret` and `issuer` default to
 * `AUTH_MASTODON_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Mastodon from "@tessera/core/providers/mastodon"
 * Mastodon({
 *   clientId: process.env.AUTH_MASTODON_ID,
 *   clientSecret: process.env.AUTH_MASTODON_SECRET,
 *   issuer: "https://mastodon.social",
 * })
 * ```
 *
 * The endpoints are under the instance URL; the profile is
 * `GET /api/v1/accounts/verify_credentials`; the name is the display name (or
 * the user name, when the display name is empty; Auth.js always takes the user
 * name), the picture `avatar_static`.
 *
 * Verified e-mail: none; Mastodon shares no e-mail address with this scope.
 * @see https://docs.joinmastodon.org/spec/oauth/
 * @see https://docs.joinmastodon.org/methods/accounts/#verify_credentials
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The account from `GET /api/v1/accounts/verify_credentials`. */
export interface MastodonProfile {
  id: string
  username: string
  acct: string
  display_name: string
  locked: boolean
  bot: boolean
  created_at: string
  note: string
  url: string
  avatar: string
  avatar_static: string
  header: string
  header_static: string
  followers_count: number
  following_count: number
  statuses_count: number
  last_status_at: string | null
  [claim: string]: ProviderClaim
}

export interface MastodonOptions<P> extends OAuthUserConfig<P> {
  /** The instance, e.g. `https://mastodon.social`. */
  issuer?: string
}

/**
 * Sign in with Mastodon (OAuth 2.0), on one instance.
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_MASTODON_ID`, `AUTH_MASTODON_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Mastodon](https://authjs.dev/reference/core/providers/mastodon)
 * @see https://docs.joinmastodon.org/spec/oauth/
 * @see https://docs.joinmastodon.org/methods/accounts/#verify_credentials
 */
export default function Mastodon<P extends MastodonProfile = MastodonProfile>(
  options: MastodonOptions<P> = {},
): OAuthConfig<P> {
  // The instance is where the endpoints live; Mastodon sends no `iss` to check.
  const { issuer, ...rest } = options
  const base = (issuer ?? "https://mastodon.social").replace(/\/+$/, "")
  return {
    id: "mastodon",
    name: "Mastodon",
    type: "oauth",
    authorization: { url: `${base}/oauth/authorize`, params: { scope: "read" } },
    token: `${base}/oauth/token`,
    userinfo: `${base}/api/v1/accounts/verify_credentials`,
    profile(profile) {
      return {
        id: profile.id,
        name: profile.display_name || profile.username || null,
        email: null,
        image: profile.avatar_static ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#6364ff" },
    options: endpointUrlsAsObjects(rest),
  }
}
