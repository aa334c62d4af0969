/**
 * Sign in with Auth0 (OpenID Connect).
 *
 * Add `https://<your app>/auth/callback/auth0` to the Allowed Callback URLs
 * of your Regular Web Application. The issuer is your tenant's domain.
 * `clientId`, `clientSecret` and `issuer` default to `AUTH_AUTH0_ID`,
 * `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Auth0 from "@tessera/core/providers/auth0"
 * Auth0({ clientId: process.env.AUTH0_ID, clientSecret: process.env.AUTH0_SECRET, issuer: "https://my-tenant.eu.auth0.com" })
 * ```
 *
 * Verified e-mail: `email` when `email_verified` is true. (A connection that does
 * not verify addresses, such as a social one, reports what its source says.)
 * @see https://auth0.com/docs/manage-users/user-accounts/user-profiles/user-profile-structure
 * @see https://auth0.com/docs/authenticate/login/oidc-conformant-authentication
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of an Auth0 ID Token. */
export interface Auth0Profile {
  sub: string
  nickname: string
  name: string
  picture: string
  updated_at: string
  email: string
  email_verified: boolean
  given_name?: string
  family_name?: string
  locale?: string
  iss: string
  aud: string
  iat: number
  exp: number
  sid?: string
  nonce?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Auth0 (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (your tenant's URL; default:
 *   `AUTH_AUTH0_ID`,
 *   `AUTH_AUTH0_SECRET`, `AUTH_AUTH0_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Auth0](https://authjs.dev/reference/core/providers/auth0)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function Auth0<P extends Auth0Profile = Auth0Profile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "auth0",
    name: "Auth0",
    type: "oidc",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#eb5424" },
    options: endpointUrlsAsObjects(options),
  }
}
