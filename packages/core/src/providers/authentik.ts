/**
 * Sign in with authentik (OpenID Connect).
 *
 * Create an OAuth2/OpenID provider (confidential client) and an application
 * using it, with `https://<your app>/auth/callback/authentik` as a redirect URI.
 * The issuer is the provider's, `https://<authentik host>/application/o/<application slug>/`.
 * `clientId`, `clientSecret` and `issuer` default to `AUTH_AUTHENTIK_ID`,
 * `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Authentik from "@tessera/core/providers/authentik"
 * Authentik({
 *   clientId: process.env.AUTH_AUTHENTIK_ID,
 *   clientSecret: process.env.AUTH_AUTHENTIK_SECRET,
 *   issuer: "https://auth.acme.example/application/o/my-app/",
 * })
 * ```
 *
 * Verified e-mail: `email` when `email_verified` is true. That claim is what
 * the `email` scope mapping of your authentik instance says: check that it
 * reflects verification (older default mappings sent a fixed value).
 * @see https://docs.goauthentik.io/add-secure-apps/providers/oauth2/
 * @see https://docs.goauthentik.io/add-secure-apps/providers/property-mappings/
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of an authentik ID Token (default scope mappings). */
export interface AuthentikProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  auth_time: number
  acr?: string
  amr?: string[]
  nonce?: string
  at_hash?: string
  c_hash?: string
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  nickname?: string
  groups?: string[]
  [claim: string]: ProviderClaim
}

/**
 * Sign in with authentik (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_AUTHENTIK_ID`, `AUTH_AUTHENTIK_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Authentik](https://authjs.dev/reference/core/providers/authentik)
 * @see https://docs.goauthentik.io/add-secure-apps/providers/oauth2/
 * @see https://docs.goauthentik.io/add-secure-apps/providers/property-mappings/
 */
export default function Authentik<P extends AuthentikProfile = AuthentikProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "authentik",
    name: "Authentik",
    type: "oidc",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: typeof profile.picture === "string" ? profile.picture : null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#fd4b2d" },
    options: endpointUrlsAsObjects(options),
  }
}
