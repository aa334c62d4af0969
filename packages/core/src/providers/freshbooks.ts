/**
 * Sign in with FreshBooks (OAuth 2.0).
 *
 * Create an app at my.freshbooks.com/#/developer with
 * `https://<your app>/auth/callback/freshbooks` as its redirect URI (FreshBooks
 * requires https) and the `user:profile:read` scope. `clientId`/`clientSecret`
 * default to `AUTH_FRESHBOOKS_ID`/`AUTH_FRESHBOOKS_SECRET`.
 *
 * @example
 * ```ts
 * import Freshbooks from "@tessera/core/providers/freshbooks"
 * Freshbooks({
 *   clientId: process.env.AUTH_FRESHBOOKS_ID,
 *   clientSecret: process.env.AUTH_FRESHBOOKS_SECRET,
 * })
 * ```
 *
 * FreshBooks's ways, handled here:
 * - No `scope` is sent: the app's scopes apply. The client id and secret go in
 *   the token request's body (`client_secret_post`), as FreshBooks documents;
 *   `state` is sent and checked besides PKCE, which FreshBooks does not document.
 * - The identity is `GET /auth/api/v1/users/me`, wrapped as `{ response: { ... } }`:
 *   the account is `response.id`, the name first and last name.
 *
 * Verified e-mail: none. FreshBooks documents no flag saying the identity's
 * `email` is verified.
 * @see https://www.freshbooks.com/api/authenticating-with-oauth-2-0-on-the-new-freshbooks-api
 * @see https://www.freshbooks.com/api/me_endpoint
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The identity of the signed-in user, in `response`. */
export interface FreshbooksIdentity {
  id: number
  identity_id?: number
  identity_uuid?: string
  first_name: string | null
  last_name: string | null
  email: string | null
  language?: string
  created_at?: string
  business_memberships?: Array<{ id: number; role: string; business: Record<string, unknown> }>
  [field: string]: ProviderClaim
}

/** What `GET https://api.freshbooks.com/auth/api/v1/users/me` answers. */
export interface FreshbooksProfile {
  response: FreshbooksIdentity
  [claim: string]: ProviderClaim
}

/**
 * Sign in with FreshBooks (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_FRESHBOOKS_ID`, `AUTH_FRESHBOOKS_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Freshbooks](https://authjs.dev/reference/core/providers/freshbooks)
 * @see https://www.freshbooks.com/api/authenticating-with-oauth-2-0-on-the-new-freshbooks-api
 */
export default function Freshbooks<P extends FreshbooksProfile = FreshbooksProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "freshbooks",
    name: "Freshbooks",
    type: "oauth",
    authorization: "https://auth.freshbooks.com/service/auth/oauth/authorize",
    token: "https://api.freshbooks.com/auth/oauth/token",
    userinfo: "https://api.freshbooks.com/auth/api/v1/users/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      const user = profile.response
      const name = [user.first_name, user.last_name].filter(Boolean).join(" ")
      return {
        id: idText(user.id),
        name: name || null,
        email: user.email ?? null,
        image: null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#0075dd" },
    options: endpointUrlsAsObjects(options),
  }
}
