/**
 * Sign in with Keycloak (OpenID Connect).
 *
 * Create a confidential OpenID Connect client in your realm with
 * `https://<your app>/auth/callback/keycloak` as a valid redirect URI. The
 * issuer is the realm URL. `clientId`, `clientSecret` and `issuer` default to
 * `AUTH_KEYCLOAK_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Keycloak from "@tessera/core/providers/keycloak"
 * Keycloak({
 *   clientId: process.env.KEYCLOAK_ID,
 *   clientSecret: process.env.KEYCLOAK_SECRET,
 *   issuer: "https://keycloak.example.com/realms/my-realm",
 * })
 * ```
 *
 * Verified e-mail: `email` when `email_verified` is true (Keycloak's "Email
 * verified" user attribute; realms without e-mail verification report false).
 * @see https://www.keycloak.org/docs/latest/server_admin/#_oidc
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

/** The claims of a Keycloak ID Token (standard client scopes). */
export interface KeycloakProfile {
  exp: number
  iat: number
  auth_time?: number
  jti: string
  iss: string
  aud: string
  sub: string
  typ: "ID"
  azp: string
  session_state?: string
  sid?: string
  at_hash?: string
  acr?: string
  email_verified: boolean
  name?: string
  preferred_username: string
  given_name?: string
  family_name?: string
  email?: string
  picture?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Keycloak (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (the realm's URL; default:
 *   `AUTH_KEYCLOAK_ID`,
 *   `AUTH_KEYCLOAK_SECRET`, `AUTH_KEYCLOAK_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Keycloak](https://authjs.dev/reference/core/providers/keycloak)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function Keycloak<P extends KeycloakProfile = KeycloakProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "keycloak",
    name: "Keycloak",
    type: "oidc",
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#4d4d4d" },
    options: endpointUrlsAsObjects(options),
  }
}
