/**
 * Sign in with Ory Hydra (OpenID Connect), self-hosted or as Ory Network's OAuth2 service.
 *
 * The provider id is `hydra`, as in Auth.js, while the module is `ory-hydra`:
 * register `https://<your app>/auth/callback/hydra` as a redirect URI of your
 * OAuth 2.0 client (`hydra create oauth2-client --redirect-uri ...`, with the
 * `authorization_code` grant and the `openid profile email` scopes). The issuer is
 * Hydra's public URL (`urls.self.issuer`), e.g. `https://auth.example.com`.
 * `clientId`, `clientSecret` and `issuer` default to `AUTH_HYDRA_ID`, `_SECRET` and
 * `_ISSUER`.
 *
 * @example
 * ```ts
 * import OryHydra from "@tessera/core/providers/ory-hydra"
 * OryHydra({
 *   clientId: process.env.HYDRA_ID,
 *   clientSecret: process.env.HYDRA_SECRET,
 *   issuer: "https://auth.example.com",
 * })
 * ```
 *
 * Hydra itself stores no users: the claims of its ID Tokens (besides `sub`) are
 * whatever your login and consent app puts in the consent session (`session.id_token`).
 *
 * Verified e-mail: `email` when `email_verified` is true, which only your consent
 * app can set: set it only for addresses your identity system has verified.
 * @see https://www.ory.sh/docs/hydra/guides/oauth2-clients
 * @see https://www.ory.sh/docs/oauth2-oidc/openid-connect-claims-scope-custom
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

/** The claims of a Hydra ID Token: the standard ones, plus what the consent app adds. */
export interface OryHydraProfile {
  iss: string
  sub: string
  aud: string | string[]
  iat: number
  exp: number
  jti: string
  auth_time?: number
  rat?: number
  acr?: string
  amr?: string[]
  sid?: string
  at_hash?: string
  name?: string
  preferred_username?: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Ory Hydra (OpenID Connect). The provider id is `hydra`.
 *
 * @param options `clientId`, `clientSecret` and `issuer` (Hydra's public URL; default:
 *   `AUTH_HYDRA_ID`, `AUTH_HYDRA_SECRET`, `AUTH_HYDRA_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Ory Hydra](https://authjs.dev/reference/core/providers/ory-hydra)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function OryHydra<P extends OryHydraProfile = OryHydraProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "hydra",
    name: "Hydra",
    type: "oidc",
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#0f172a" },
    options: endpointUrlsAsObjects(options),
  }
}
