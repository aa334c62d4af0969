/**
 * Sign in with Okta (OpenID Connect).
 *
 * Create an OIDC Web Application with `https://<your app>/auth/callback/okta`
 * as a sign-in redirect URI. The issuer is your authorization server, e.g.
 * `https://<your org>.okta.com/oauth2/default` (or the org URL).
 * `clientId`, `clientSecret` and `issuer` default to `AUTH_OKTA_ID`,
 * `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Okta from "@tessera/core/providers/okta"
 * Okta({ clientId: process.env.OKTA_ID, clientSecret: process.env.OKTA_SECRET, issuer: "https://acme.okta.com/oauth2/default" })
 * ```
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://developer.okta.com/docs/reference/api/oidc/#scope-dependent-claims-not-always-returned
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

/** The claims of an Okta ID Token. */
export interface OktaProfile {
  iss: string
  ver: string
  sub: string
  aud: string
  iat: number
  exp: number
  jti: string
  auth_time: number
  amr?: string[]
  idp?: string
  nonce?: string
  name?: string
  nickname?: string
  preferred_username: string
  given_name?: string
  middle_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  profile?: string
  zoneinfo?: string
  locale?: string
  address?: string
  phone_number?: string
  picture?: string
  website?: string
  gender?: string
  birthdate?: string
  updated_at?: number
  at_hash?: string
  c_hash?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Okta (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (default: `AUTH_OKTA_ID`,
 *   `AUTH_OKTA_SECRET`,
 *   `AUTH_OKTA_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Okta](https://authjs.dev/reference/core/providers/okta)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function Okta<P extends OktaProfile = OktaProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "okta",
    name: "Okta",
    type: "oidc",
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    // Okta's /authorize requires `state` (Auth.js sends it too); `nonce` is Tessera's OIDC default.
    checks: ["pkce", "state", "nonce"],
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
