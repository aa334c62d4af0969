/**
 * Sign in with Vipps MobilePay (OpenID Connect; "Login with Vipps").
 *
 * In the Vipps MobilePay business portal, activate Login for your sales unit and
 * add `https://<your app>/auth/callback/vipps` as a redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_VIPPS_ID`/`AUTH_VIPPS_SECRET`. For the
 * test environment, set `issuer: "https://apitest.vipps.no/access-management-1.0/access/"`.
 *
 * @example
 * ```ts
 * import Vipps from "@tessera/core/providers/vipps"
 * Vipps({ clientId: process.env.VIPPS_ID, clientSecret: process.env.VIPPS_SECRET })
 * ```
 *
 * Vipps's own ways, handled here:
 * - the issuer ends with a slash (`.../access-management-1.0/access/`);
 * - the ID Token carries no profile: with `idToken: false` the user comes from the
 *   userinfo endpoint the metadata names (its `sub` must be the ID Token's);
 * - scope `openid name email`; checks PKCE, `state` and nonce.
 *
 * Verified e-mail: `email` when `email_verified` is true (userinfo).
 * @see https://developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/core-concepts/
 * @see https://developer.vippsmobilepay.com/docs/APIs/userinfo-api/
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

/** An address as Vipps's userinfo gives it (scope `address`). */
export interface VippsAddress {
  address_type: "home" | "work" | "other"
  country: string
  formatted: string
  postal_code: string
  region: string
  street_address: string
}

/** Vipps's userinfo response (with the scopes asked for). */
export interface VippsProfile {
  sub: string
  sid?: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  phone_number?: string
  birthdate?: string
  nin?: string
  address?: VippsAddress
  other_addresses?: VippsAddress[]
  accounts?: Array<{ account_name: string; account_number: string; bank_name: string }>
  delegatedConsents?: ProviderClaim
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Vipps MobilePay (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_VIPPS_ID`, `AUTH_VIPPS_SECRET`), and
 *   any OAuth option to override (`issuer` for the test environment).
 * @see [Auth.js: Vipps](https://authjs.dev/reference/core/providers/vipps)
 * @see [OpenID Connect Core 1.0 §5.3, UserInfo Endpoint](https://openid.net/specs/openid-connect-core-1_0.html#UserInfo)
 */
export default function Vipps<P extends VippsProfile = VippsProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "vipps",
    name: "Vipps",
    type: "oidc",
    issuer: "https://api.vipps.no/access-management-1.0/access/",
    authorization: { params: { scope: "openid name email" } },
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#f05c18" },
    options: endpointUrlsAsObjects(options),
  }
}
