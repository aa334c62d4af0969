/**
 * Sign in with Roblox (OpenID Connect).
 *
 * In the Creator Dashboard, create an OAuth 2.0 app (Credentials, OAuth 2.0 Apps)
 * with `https://<your app>/auth/callback/roblox` as a redirect URL and the
 * `openid` and `profile` scopes. `clientId`/`clientSecret` default to
 * `AUTH_ROBLOX_ID`/`AUTH_ROBLOX_SECRET`.
 *
 * @example
 * ```ts
 * import Roblox from "@tessera/core/providers/roblox"
 * Roblox({ clientId: process.env.ROBLOX_ID, clientSecret: process.env.ROBLOX_SECRET })
 * ```
 *
 * Roblox's own ways, handled here:
 * - the issuer is `https://apis.roblox.com/oauth/`, with its trailing slash (the
 *   `iss` of its ID Tokens);
 * - scope `openid profile`: Roblox offers third-party apps no e-mail scope;
 * - the checks are PKCE and `state` (no nonce is asked for);
 * - `name` and `nickname` are the display name, `preferred_username` the user name.
 *
 * Verified e-mail: none: Roblox shares no address.
 * @see https://create.roblox.com/docs/cloud/auth/oauth2-reference
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OIDCConfig, OIDCUserConfig, ProviderClaim } from "./oauth.js"

/** The claims of a Roblox ID Token (`openid profile`). */
export interface RobloxProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  nonce?: string
  name: string
  nickname: string
  preferred_username: string
  created_at: number
  profile: string
  picture: string | null
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Roblox (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_ROBLOX_ID`, `AUTH_ROBLOX_SECRET`),
 *   and any option of the generic OAuth provider to override (`authorization`, `profile`, ...).
 * @see [Auth.js: Roblox](https://authjs.dev/reference/core/providers/roblox)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function Roblox<P extends RobloxProfile = RobloxProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "roblox",
    name: "Roblox",
    type: "oidc",
    issuer: "https://apis.roblox.com/oauth/",
    authorization: { params: { scope: "openid profile" } },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name || profile.nickname || profile.preferred_username || null,
        // Roblox shares no e-mail address (no `email` scope); Auth.js would copy a claim it never sends.
        email: null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#5865f2" },
    options: endpointUrlsAsObjects(options),
  }
}
