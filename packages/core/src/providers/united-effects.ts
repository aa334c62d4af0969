/**
 * Sign in with United Effects (OpenID Connect), the Core EOS identity service.
 *
 * Register a client in your Auth Group with `https://<your app>/auth/callback/united-effects`
 * as a redirect URI. The issuer is the Auth Group's, e.g.
 * `https://auth.unitedeffects.com/<auth group id>`. `clientId`, `clientSecret` and
 * `issuer` default to `AUTH_UNITED_EFFECTS_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import UnitedEffects from "@tessera/core/providers/united-effects"
 * UnitedEffects({
 *   clientId: process.env.UE_ID,
 *   clientSecret: process.env.UE_SECRET,
 *   issuer: `https://auth.unitedeffects.com/${process.env.UE_AUTH_GROUP}`,
 * })
 * ```
 *
 * United Effects issues access tokens for a resource named in the authorization
 * request (RFC 8707 `resource`): the issuer itself, sent by default when `issuer`
 * is given to the factory.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://docs.unitedeffects.com/
 * @see https://www.rfc-editor.org/rfc/rfc8707.html
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

/** The claims of a United Effects ID Token. */
export interface UnitedEffectsProfile {
  iss: string
  sub: string
  aud: string | string[]
  iat: number
  exp: number
  email?: string
  email_verified?: boolean
  name?: string
  preferred_username?: string
  picture?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with United Effects (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (the Auth Group's issuer; default:
 *   `AUTH_UNITED_EFFECTS_ID`, `AUTH_UNITED_EFFECTS_SECRET`, `AUTH_UNITED_EFFECTS_ISSUER`), and any
 *   OAuth option to override.
 * @see [Auth.js: United Effects](https://authjs.dev/reference/core/providers/united-effects)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function UnitedEffects<P extends UnitedEffectsProfile = UnitedEffectsProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "united-effects",
    name: "United Effects",
    type: "oidc",
    authorization: {
      params: {
        scope: "openid email profile",
        // The access token's audience (RFC 8707): the Auth Group's issuer.
        ...(options.issuer ? { resource: options.issuer } : {}),
      },
    },
    // The standard claims, as Auth.js's default profile reads them (the picture too).
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
