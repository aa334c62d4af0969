/**
 * Sign in with Azure AD B2C (OpenID Connect), through one user flow or custom
 * policy.
 *
 * Register a web application in your B2C tenant with
 * `https://<your app>/auth/callback/azure-ad-b2c` as a redirect URI and a client
 * secret; in the user flow, return the "Email Addresses", "Display Name" and
 * "User's Object ID" claims. `clientId`/`clientSecret` default to
 * `AUTH_AZURE_AD_B2C_ID`/`AUTH_AZURE_AD_B2C_SECRET`.
 *
 * B2C's metadata lives under the user flow, but names a tenant-wide issuer, so
 * name the metadata: `tenantId` (the tenant name, `contoso` of
 * `contoso.onmicrosoft.com`) and `primaryUserFlow` (`B2C_1_signupsignin`) make
 * `wellKnown` `https://<tenant>.b2clogin.com/<tenant>.onmicrosoft.com/<flow>/v2.0/.well-known/openid-configuration`,
 * whose issuer is then the expected one. Or give `wellKnown` (and `issuer`)
 * yourself, for a custom domain.
 *
 * @example
 * ```ts
 * import AzureADB2C from "@tessera/core/providers/azure-ad-b2c"
 * AzureADB2C({
 *   clientId: process.env.AUTH_AZURE_AD_B2C_ID,
 *   clientSecret: process.env.AUTH_AZURE_AD_B2C_SECRET,
 *   tenantId: "contoso",
 *   primaryUserFlow: "B2C_1_signupsignin",
 * })
 * ```
 *
 * The e-mail is the first of the `emails` claim.
 *
 * Verified e-mail: none. `emails` carries no verification flag, and whether a
 * user flow verified the address is its configuration, not something the token
 * says.
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/tokens-overview#claims
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OIDCConfig, OIDCUserConfig, ProviderClaim } from "./oauth.js"

/** The claims of an Azure AD B2C ID Token (with the usual user flow claims). */
export interface AzureADB2CProfile {
  exp: number
  nbf: number
  ver: string
  iss: string
  sub: string
  aud: string
  iat: number
  auth_time: number
  oid: string
  name?: string
  given_name?: string
  family_name?: string
  emails?: string[]
  country?: string
  postalCode?: string
  /** The user flow or policy. */
  tfp?: string
  acr?: string
  idp?: string
  preferred_username?: string
  [claim: string]: ProviderClaim
}

export interface AzureADB2COptions<P> extends OIDCUserConfig<P> {
  /** The tenant name: `contoso` of `contoso.onmicrosoft.com`. */
  tenantId?: string
  /** The user flow or custom policy, e.g. `B2C_1_signupsignin`. */
  primaryUserFlow?: string
}

/**
 * Sign in with Azure AD B2C (OpenID Connect), through one user flow or custom
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_AZURE_AD_B2C_ID`, `AUTH_AZURE_AD_B2C_SECRET`), and any OAuth option to override.
 * @see [Auth.js: AzureADB2C](https://authjs.dev/reference/core/providers/azure-ad-b2c)
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/openid-connect
 * @see https://learn.microsoft.com/en-us/azure/active-directory-b2c/tokens-overview#claims
 */
export default function AzureADB2C<P extends AzureADB2CProfile = AzureADB2CProfile>(
  options: AzureADB2COptions<P> = {},
): OIDCConfig<P> {
  const { tenantId, primaryUserFlow, ...rest } = options
  const userOptions = endpointUrlsAsObjects(rest)
  if (tenantId && primaryUserFlow && !userOptions.wellKnown && !userOptions.issuer) {
    const tenant = encodeURIComponent(tenantId)
    const flow = encodeURIComponent(primaryUserFlow)
    userOptions.wellKnown = `https://${tenant}.b2clogin.com/${tenant}.onmicrosoft.com/${flow}/v2.0/.well-known/openid-configuration`
  }
  return {
    id: "azure-ad-b2c",
    name: "Azure AD B2C",
    type: "oidc",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? null,
        email: profile.emails?.[0] ?? null,
        image: null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#0072c6" },
    options: userOptions,
  }
}
