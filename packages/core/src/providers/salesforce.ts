/**
 * Sign in with Salesforce (OpenID Connect).
 *
 * Create an External Client App (or Connected App) with OAuth enabled, the
 * `openid`, `profile` and `email` scopes, and
 * `https://<your app>/auth/callback/salesforce` as its callback URL.
 * `clientId`/`clientSecret` (consumer key and secret) default to
 * `AUTH_SALESFORCE_ID`/`AUTH_SALESFORCE_SECRET`. The issuer is
 * `https://login.salesforce.com`; give a My Domain URL (or
 * `https://test.salesforce.com` for sandboxes) as `issuer` instead.
 *
 * @example
 * ```ts
 * import Salesforce from "@tessera/core/providers/salesforce"
 * Salesforce({ clientId: process.env.AUTH_SALESFORCE_ID, clientSecret: process.env.AUTH_SALESFORCE_SECRET })
 * Salesforce({ issuer: "https://acme.my.salesforce.com" })
 * ```
 *
 * The profile is the userinfo endpoint's (`idToken: false`), checked to be the
 * ID Token's subject; the checks are PKCE, `state` and `nonce`.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_userinfo_endpoint.htm
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The userinfo response of Salesforce. */
export interface SalesforceProfile {
  /** A URL: `https://login.salesforce.com/id/<org id>/<user id>`. */
  sub: string
  user_id: string
  organization_id: string
  preferred_username: string
  nickname: string
  name: string
  email: string
  email_verified: boolean
  given_name?: string
  family_name?: string
  zoneinfo?: string
  photos?: { picture: string; thumbnail: string }
  picture?: string
  profile?: string
  locale?: string
  user_type?: string
  active?: boolean
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Salesforce (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_SALESFORCE_ID`, `AUTH_SALESFORCE_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Salesforce](https://authjs.dev/reference/core/providers/salesforce)
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_openid.htm
 * @see https://help.salesforce.com/s/articleView?id=sf.remoteaccess_using_userinfo_endpoint.htm
 */
export default function Salesforce<P extends SalesforceProfile = SalesforceProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "salesforce",
    name: "Salesforce",
    type: "oidc",
    issuer: "https://login.salesforce.com",
    idToken: false,
    checks: ["pkce", "state", "nonce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? profile.photos?.picture ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#00a1e0" },
    options: endpointUrlsAsObjects(options),
  }
}
