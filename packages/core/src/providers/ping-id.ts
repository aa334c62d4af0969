/**
 * Sign in with Ping Identity (OpenID Connect): PingOne, or PingFederate.
 *
 * In PingOne, add an OIDC Web App to your environment, with
 * `https://<your app>/auth/callback/ping-id` as a redirect URI and the
 * `openid profile email` scopes granted. The issuer is the environment's,
 * `https://auth.pingone.<region>/<environment id>/as` (PingFederate: its base URL).
 * `clientId`, `clientSecret` and `issuer` default to `AUTH_PING_ID_ID`, `_SECRET`
 * and `_ISSUER`.
 *
 * @example
 * ```ts
 * import PingId from "@tessera/core/providers/ping-id"
 * PingId({
 *   clientId: process.env.PING_ID,
 *   clientSecret: process.env.PING_SECRET,
 *   issuer: `https://auth.pingone.com/${process.env.PING_ENVIRONMENT_ID}/as`,
 * })
 * ```
 *
 * Verified e-mail: `email` when `email_verified` is true. PingOne sends the claim
 * only where the environment maps it (the user's "E-mail verified" attribute):
 * without it, no address is vouched for.
 * @see https://docs.pingidentity.com/pingone/applications/p1_add_app_worker.html
 * @see https://apidocs.pingidentity.com/pingone/platform/v1/api/#openid-connectoauth-2
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

/** The claims of a PingOne ID Token (`openid profile email`). */
export interface PingProfile {
  iss: string
  sub: string
  aud: string | string[]
  iat: number
  exp: number
  acr?: string
  amr?: string[]
  auth_time?: number
  at_hash?: string
  sid?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  name?: string
  picture?: string
  updated_at?: number
  email?: string
  email_verified?: boolean
  env?: string
  org?: string
  "p1.region"?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Ping Identity (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (the environment's issuer; default:
 *   `AUTH_PING_ID_ID`, `AUTH_PING_ID_SECRET`, `AUTH_PING_ID_ISSUER`), and any OAuth option to
 *   override.
 * @see [Auth.js: Ping Identity](https://authjs.dev/reference/core/providers/ping-id)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function PingId<P extends PingProfile = PingProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "ping-id",
    name: "Ping Identity",
    type: "oidc",
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#b3282d" },
    options: endpointUrlsAsObjects(options),
  }
}
