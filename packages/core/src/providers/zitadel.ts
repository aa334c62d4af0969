/**
 * Sign in with ZITADEL (OpenID Connect).
 *
 * Create a Web application (authentication method "Code" with a client secret,
 * or PKCE) in a ZITADEL project, with `https://<your app>/auth/callback/zitadel`
 * as a redirect URI. The issuer is your instance, e.g.
 * `https://<instance>.zitadel.cloud`. `clientId`, `clientSecret` and `issuer`
 * default to `AUTH_ZITADEL_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Zitadel from "@tessera/core/providers/zitadel"
 * Zitadel({
 *   clientId: process.env.AUTH_ZITADEL_ID,
 *   clientSecret: process.env.AUTH_ZITADEL_SECRET,
 *   issuer: "https://acme-abc123.zitadel.cloud",
 * })
 * ```
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://zitadel.com/docs/guides/integrate/login/oidc/login-users
 * @see https://zitadel.com/docs/apis/openidoauth/claims
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

/** The claims of a ZITADEL ID Token (with the `profile` and `email` scopes). */
export interface ZitadelProfile {
  iss: string
  sub: string
  aud: string | string[]
  azp?: string
  exp: number
  iat: number
  auth_time?: number
  amr?: string[]
  nonce?: string
  name?: string
  given_name?: string
  family_name?: string
  nickname?: string
  preferred_username?: string
  gender?: string
  locale?: string
  picture?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  phone_number_verified?: boolean
  updated_at?: number
  [claim: string]: ProviderClaim
}

/**
 * Sign in with ZITADEL (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_ZITADEL_ID`, `AUTH_ZITADEL_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Zitadel](https://authjs.dev/reference/core/providers/zitadel)
 * @see https://zitadel.com/docs/guides/integrate/login/oidc/login-users
 * @see https://zitadel.com/docs/apis/openidoauth/claims
 */
export default function Zitadel<P extends ZitadelProfile = ZitadelProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "zitadel",
    name: "ZITADEL",
    type: "oidc",
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#5469d4" },
    options: endpointUrlsAsObjects(options),
  }
}
