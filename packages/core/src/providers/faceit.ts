/**
 * Sign in with FACEIT (FACEIT Connect, OAuth 2.0).
 *
 * Create an app at developers.faceit.com with a client-side (OAuth 2)
 * connection whose redirect URL is `https://<your app>/auth/callback/faceit`,
 * and the `openid`, `email` and `profile` scopes selected there (FACEIT applies
 * the app's scopes; none is sent). `clientId`/`clientSecret` default to
 * `AUTH_FACEIT_ID`/`AUTH_FACEIT_SECRET`.
 *
 * @example
 * ```ts
 * import FACEIT from "@tessera/core/providers/faceit"
 * FACEIT({ clientId: process.env.AUTH_FACEIT_ID, clientSecret: process.env.AUTH_FACEIT_SECRET })
 * ```
 *
 * FACEIT's ways, handled here:
 * - The sign-in page is `accounts.faceit.com/accounts` with `redirect_popup=true`
 *   (the whole window goes to FACEIT and comes back, no popup).
 * - The client authenticates with HTTP Basic. Besides PKCE, `state` is sent
 *   and checked: FACEIT does not say it checks the PKCE verifier, and `state`
 *   ties the callback to the browser either way.
 * - The user is read from `GET /auth/v1/resources/userinfo`; the account is
 *   its `guid`, the name its `name` (else the `nickname`).
 *
 * Verified e-mail: none. The `email` comes with no flag saying FACEIT verified it.
 * @see https://cdn.faceit.com/third_party/docs/FACEIT_Connect_3.0.pdf
 * @see https://developers.faceit.com/
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET https://api.faceit.com/auth/v1/resources/userinfo`. */
export interface FACEITProfile {
  /** The FACEIT user id (a UUID). */
  guid: string
  name?: string
  nickname?: string
  email?: string
  picture?: string
  locale?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with FACEIT (FACEIT Connect, OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_FACEIT_ID`, `AUTH_FACEIT_SECRET`), and any OAuth option to override.
 * @see [Auth.js: FACEIT](https://authjs.dev/reference/core/providers/faceit)
 * @see https://cdn.faceit.com/third_party/docs/FACEIT_Connect_3.0.pdf
 */
export default function FACEIT<P extends FACEITProfile = FACEITProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "faceit",
    name: "FACEIT",
    type: "oauth",
    authorization: {
      url: "https://accounts.faceit.com/accounts",
      params: { redirect_popup: "true" },
    },
    token: "https://api.faceit.com/auth/v1/oauth/token",
    userinfo: "https://api.faceit.com/auth/v1/resources/userinfo",
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: profile.guid,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#ff5500" },
    options: endpointUrlsAsObjects(options),
  }
}
