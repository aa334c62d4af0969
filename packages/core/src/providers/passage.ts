/**
 * Sign in with Passage by 1Password (OpenID Connect; passkeys and magic links at Passage).
 *
 * In the Passage console, create an OIDC client for your app (Apps, Auth,
 * "Sign in with Passage") with `https://<your app>/auth/callback/passage` as a
 * redirect URI. The issuer is your app's URL, `https://auth.passage.id/v1/apps/<app id>`.
 * `clientId`, `clientSecret` and `issuer` default to `AUTH_PASSAGE_ID`, `_SECRET`
 * and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Passage from "@tessera/core/providers/passage"
 * Passage({
 *   clientId: process.env.PASSAGE_ID,
 *   clientSecret: process.env.PASSAGE_SECRET,
 *   issuer: `https://auth.passage.id/v1/apps/${process.env.PASSAGE_APP_ID}`,
 * })
 * ```
 *
 * Client credentials go as HTTP Basic (`client_secret_basic`). Passage users may
 * have a phone number and no address: `email` is then absent.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://docs.passage.id/hosted-login/oidc-client-configuration
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

/** The claims of a Passage ID Token. */
export interface PassageProfile {
  iss: string
  sub: string
  aud: string | string[]
  exp: number
  iat: number
  auth_time?: number
  azp?: string
  client_id?: string
  at_hash?: string
  c_hash?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Passage (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (`https://auth.passage.id/v1/apps/<app id>`;
 *   default: `AUTH_PASSAGE_ID`, `AUTH_PASSAGE_SECRET`, `AUTH_PASSAGE_ISSUER`), and any OAuth option
 *   to override.
 * @see [Auth.js: Passage](https://authjs.dev/reference/core/providers/passage)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function Passage<P extends PassageProfile = PassageProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "passage",
    name: "Passage",
    type: "oidc",
    client: { token_endpoint_auth_method: "client_secret_basic" },
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#3d53f6" },
    options: endpointUrlsAsObjects(options),
  }
}
