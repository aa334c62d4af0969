/**
 * Sign in with Coinbase (OAuth 2.0).
 *
 * Create an OAuth application in the Coinbase Developer Platform with
 * `https://<your app>/auth/callback/coinbase` as its redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_COINBASE_ID`/`AUTH_COINBASE_SECRET`.
 *
 * @example
 * ```ts
 * import Coinbase from "@tessera/core/providers/coinbase"
 * Coinbase({ clientId: process.env.COINBASE_ID, clientSecret: process.env.COINBASE_SECRET })
 * ```
 *
 * The scopes `wallet:user:read wallet:user:email` are part of the
 * authorization URL's query (override the URL, or `authorization.params.scope`,
 * to ask for others). The user is `GET https://api.coinbase.com/v2/user`, which
 * answers it inside `data`.
 *
 * Verified e-mail: none. `data.email` comes with no flag saying Coinbase
 * verified it.
 * @see https://docs.cdp.coinbase.com/coinbase-app/oauth2-integration/integrations
 * @see https://docs.cdp.coinbase.com/coinbase-app/track-apis/users#show-current-user
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** `GET /v2/user`: the current user, under `data`. */
export interface CoinbaseProfile {
  data: {
    id: string
    name: string | null
    username: string | null
    profile_location: string | null
    profile_bio: string | null
    profile_url: string | null
    avatar_url: string | null
    resource: "user"
    resource_path: string
    /** With the `wallet:user:email` scope. */
    email?: string
    [field: string]: ProviderClaim
  }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Coinbase (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_COINBASE_ID`,
 *   `AUTH_COINBASE_SECRET`), and any option of the generic OAuth provider to override
 *   (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Coinbase](https://authjs.dev/reference/core/providers/coinbase)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Coinbase<P extends CoinbaseProfile = CoinbaseProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "coinbase",
    name: "Coinbase",
    type: "oauth",
    authorization:
      "https://login.coinbase.com/oauth2/auth?scope=wallet:user:email+wallet:user:read",
    token: "https://login.coinbase.com/oauth2/token",
    userinfo: "https://api.coinbase.com/v2/user",
    profile(profile) {
      return {
        id: profile.data.id,
        name: profile.data.name ?? profile.data.username ?? null,
        email: profile.data.email ?? null,
        image: profile.data.avatar_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#0052ff" },
    options: endpointUrlsAsObjects(options),
  }
}
