/**
 * Sign in with Beyond Identity, passwordless sign-in with device-bound passkeys
 * (OpenID Connect).
 *
 * In the Beyond Identity admin console, add an application (OIDC, confidential
 * client) with `https://<your app>/auth/callback/beyondidentity` as a redirect
 * URI; its issuer is shown with the application
 * (`https://auth-<region>.beyondidentity.com/v1/tenants/<tenant>/realms/<realm>/applications/<application>`).
 * `clientId`, `clientSecret` and `issuer` default to `AUTH_BEYONDIDENTITY_ID`,
 * `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import BeyondIdentity from "@tessera/core/providers/beyondidentity"
 * BeyondIdentity({
 *   clientId: process.env.BEYOND_IDENTITY_ID,
 *   clientSecret: process.env.BEYOND_IDENTITY_SECRET,
 *   issuer: process.env.BEYOND_IDENTITY_ISSUER,
 * })
 * ```
 *
 * Verified e-mail: `email` when `email_verified` is true (standard claims; an
 * ID Token without the flag vouches for no address).
 * @see https://developer.beyondidentity.com/docs/add-an-application
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of a Beyond Identity ID Token (scopes `openid profile email`). */
export interface BeyondIdentityProfile {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp: number
  nonce?: string
  name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Beyond Identity (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (your application's issuer; default:
 *   `AUTH_BEYONDIDENTITY_ID`, `_SECRET`, `_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Beyond Identity](https://authjs.dev/reference/core/providers/beyondidentity)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function BeyondIdentity<P extends BeyondIdentityProfile = BeyondIdentityProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "beyondidentity",
    name: "Beyond Identity",
    type: "oidc",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#5077c5" },
    options: endpointUrlsAsObjects(options),
  }
}
