/**
 * Sign in with IdentityServer4 (OpenID Connect). Deprecated: IdentityServer4
 * reached its end of life in 2022 and gets no more fixes; its successor is
 * Duende IdentityServer, which speaks the same OpenID Connect (point this
 * provider, or a generic `type: "oidc"` provider, at its issuer).
 *
 * Register a client with the authorization code flow, a secret, the `openid`,
 * `profile` and `email` scopes, and `https://<your app>/auth/callback/identity-server4`
 * as a redirect URI. The issuer is the server's base URL (its discovery document
 * is under `/.well-known/openid-configuration`). `clientId`, `clientSecret` and
 * `issuer` default to `AUTH_IDENTITY_SERVER4_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import IdentityServer4 from "@tessera/core/providers/identity-server4"
 * IdentityServer4({
 *   clientId: process.env.AUTH_IDENTITY_SERVER4_ID,
 *   clientSecret: process.env.AUTH_IDENTITY_SERVER4_SECRET,
 *   issuer: "https://identity.example.com",
 * })
 * ```
 *
 * Verified e-mail: `email` when `email_verified` is true (the `email` scope's
 * claims, as the server's profile service issues them).
 * @see https://identityserver4.readthedocs.io/en/latest/topics/signin.html
 * @see https://docs.duendesoftware.com/identityserver/
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

/** The claims of an IdentityServer4 ID Token (with the `profile` and `email` scopes). */
export interface IdentityServer4Profile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  auth_time?: number
  idp?: string
  amr?: string[]
  sid?: string
  name?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with IdentityServer4 (OpenID Connect). Deprecated with IdentityServer4
 * itself; for Duende IdentityServer use the same provider or a generic OIDC one.
 *
 * @param options `clientId`, `clientSecret` and `issuer` (default `AUTH_IDENTITY_SERVER4_ID`,
 *   `AUTH_IDENTITY_SERVER4_SECRET`, `AUTH_IDENTITY_SERVER4_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: IdentityServer4](https://authjs.dev/reference/core/providers/identity-server4)
 * @see https://identityserver4.readthedocs.io/en/latest/
 */
export default function IdentityServer4<P extends IdentityServer4Profile = IdentityServer4Profile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "identity-server4",
    name: "IdentityServer4",
    type: "oidc",
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#0c6fb6" },
    options: endpointUrlsAsObjects(options),
  }
}
