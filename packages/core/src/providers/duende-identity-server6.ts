/**
 * Sign in with a Duende IdentityServer 6 (OpenID Connect).
 *
 * Add a client to your IdentityServer with the authorization code grant
 * (`AllowedGrantTypes = GrantTypes.Code`, PKCE required), a secret, the
 * scopes `openid profile email`, and
 * `https://<your app>/auth/callback/duende-identity-server6` among its
 * `RedirectUris`. The issuer is the server's base URL. `clientId`,
 * `clientSecret` and `issuer` default to `AUTH_DUENDE_IDENTITY_SERVER6_ID`,
 * `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import DuendeIdentityServer6 from "@tessera/core/providers/duende-identity-server6"
 * DuendeIdentityServer6({
 *   clientId: process.env.DIS6_ID,
 *   clientSecret: process.env.DIS6_SECRET,
 *   issuer: "https://identity.example.com",
 * })
 * ```
 *
 * IdentityServer leaves the claims of the `profile` and `email` scopes out of
 * the ID Token unless the client sets `AlwaysIncludeUserClaimsInIdToken`;
 * without it, set `idToken: false` to read them from the userinfo endpoint.
 *
 * Verified e-mail: `email` when `email_verified` is true (standard claims, as
 * your user store reports them; ASP.NET Identity's `EmailConfirmed`).
 * @see https://docs.duendesoftware.com/identityserver/v6/fundamentals/clients/
 * @see https://docs.duendesoftware.com/identityserver/v6/reference/models/client/#authentication--session-management
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  profileOf,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of an IdentityServer ID Token (or userinfo) with scopes `openid profile email`. */
export interface DuendeISUser {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp: number
  nbf?: number
  nonce?: string
  auth_time?: number
  idp?: string
  amr?: string[]
  sid?: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  website?: string
  picture?: string
  email?: string
  email_verified?: boolean
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Duende IdentityServer 6 (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (the server's URL; default:
 *   `AUTH_DUENDE_IDENTITY_SERVER6_ID`, `_SECRET`, `_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Duende IdentityServer 6](https://authjs.dev/reference/core/providers/duende-identity-server6)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function DuendeIdentityServer6<P extends DuendeISUser = DuendeISUser>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "duende-identity-server6",
    name: "DuendeIdentityServer6",
    type: "oidc",
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    options: endpointUrlsAsObjects(options),
  }
}
