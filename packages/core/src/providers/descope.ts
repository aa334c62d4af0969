/**
 * Sign in with Descope (OpenID Connect).
 *
 * In the Descope console, use your project's federated app (OIDC) with
 * `https://<your app>/auth/callback/descope` as a redirect URL; `clientId` is
 * the project id, `clientSecret` an access key. The issuer defaults to
 * `https://api.descope.com/<project id>`. `clientId`, `clientSecret` and
 * `issuer` default to `AUTH_DESCOPE_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Descope from "@tessera/core/providers/descope"
 * Descope({ clientId: process.env.AUTH_DESCOPE_ID, clientSecret: process.env.AUTH_DESCOPE_SECRET })
 * ```
 *
 * The checks are PKCE and `state`. Give `issuer` when the factory cannot see
 * the project id (a config object completed by `setEnvDefaults`).
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://docs.descope.com/identity-federation/applications/oidc-apps
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

/** The claims of a Descope ID Token. */
export interface DescopeProfile {
  sub: string
  iss?: string
  aud?: string | string[]
  name?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  picture?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Descope (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_DESCOPE_ID`, `AUTH_DESCOPE_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Descope](https://authjs.dev/reference/core/providers/descope)
 * @see https://docs.descope.com/identity-federation/applications/oidc-apps
 */
export default function Descope<P extends DescopeProfile = DescopeProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  const userOptions = endpointUrlsAsObjects(options)
  if (!userOptions.issuer && !userOptions.wellKnown && options.clientId)
    userOptions.issuer = `https://api.descope.com/${encodeURIComponent(options.clientId)}`
  return {
    id: "descope",
    name: "Descope",
    type: "oidc",
    checks: ["pkce", "state"],
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#1c1c23" },
    options: userOptions,
  }
}
