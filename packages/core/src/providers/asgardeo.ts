/**
 * Sign in with Asgardeo, WSO2's identity service (OpenID Connect).
 *
 * In the Asgardeo console, register a "Traditional Web Application" (OpenID
 * Connect) with `https://<your app>/auth/callback/asgardeo` as an authorized
 * redirect URL, and copy the issuer from its "Info" tab:
 * `https://api.asgardeo.io/t/<organization>/oauth2/token`. `clientId`,
 * `clientSecret` and `issuer` default to `AUTH_ASGARDEO_ID`, `_SECRET` and
 * `_ISSUER`.
 *
 * @example
 * ```ts
 * import Asgardeo from "@tessera/core/providers/asgardeo"
 * Asgardeo({
 *   clientId: process.env.ASGARDEO_ID,
 *   clientSecret: process.env.ASGARDEO_SECRET,
 *   issuer: "https://api.asgardeo.io/t/my-org/oauth2/token",
 * })
 * ```
 *
 * Asgardeo's metadata lives under that issuer
 * (`<issuer>/.well-known/openid-configuration`), so discovery needs nothing
 * more. Asgardeo issues no `name` claim unless an application asks for it; the
 * user's name then falls back to `given_name` and `family_name`, then
 * `preferred_username`.
 *
 * Verified e-mail: `email` when `email_verified` is true (the `email` scope's
 * claims, as the organization's e-mail verification reports them).
 * @see https://wso2.com/asgardeo/docs/guides/authentication/oidc/discover-oidc-configs/
 * @see https://wso2.com/asgardeo/docs/guides/users/attributes/manage-scopes/
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of an Asgardeo ID Token (scopes `openid profile email`). */
export interface AsgardeoProfile {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp: number
  nonce?: string
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
  org_id?: string
  org_name?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Asgardeo (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer`
 *   (`https://api.asgardeo.io/t/<organization>/oauth2/token`; default: `AUTH_ASGARDEO_ID`,
 *   `_SECRET`, `_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Asgardeo](https://authjs.dev/reference/core/providers/asgardeo)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function Asgardeo<P extends AsgardeoProfile = AsgardeoProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "asgardeo",
    name: "Asgardeo",
    type: "oidc",
    profile(profile) {
      const fullName = [profile.given_name, profile.family_name].filter(Boolean).join(" ")
      return {
        id: profile.sub,
        name: profile.name || fullName || profile.preferred_username || null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
