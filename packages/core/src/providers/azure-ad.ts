/**
 * Sign in with Azure Active Directory: deprecated, as in Auth.js. Azure AD is
 * now Microsoft Entra ID; use `@tessera/core/providers/microsoft-entra-id`.
 * This is that provider under the old id and name, so an app that still
 * imports `azure-ad` keeps its accounts (stored under `provider: "azure-ad"`)
 * and its callback URL.
 *
 * Register `https://<your app>/auth/callback/azure-ad` as a Web redirect URI
 * of your app registration. `clientId`, `clientSecret` and `issuer` default to
 * `AUTH_AZURE_AD_ID`, `_SECRET` and `_ISSUER`. Everything else is Microsoft
 * Entra ID's: the issuer is tenant-specific,
 * `https://login.microsoftonline.com/<tenant id>/v2.0` (or give `tenantId`);
 * the multi-tenant endpoints are not supported.
 *
 * @example
 * ```ts
 * import AzureAD from "@tessera/core/providers/azure-ad"
 * AzureAD({
 *   clientId: process.env.AZURE_AD_ID,
 *   clientSecret: process.env.AZURE_AD_SECRET,
 *   tenantId: process.env.AZURE_AD_TENANT_ID,
 * })
 * ```
 *
 * Verified e-mail: as Microsoft Entra ID, `email` only with the optional claim
 * `xms_edov: true`; never the tenant-editable `email` alone.
 * @see https://learn.microsoft.com/en-us/entra/fundamentals/new-name
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/optional-claims-reference
 * @module
 */
import MicrosoftEntraID, {
  type MicrosoftEntraIDOptions,
  type MicrosoftEntraIDProfile,
} from "./microsoft-entra-id.js"
import type { OIDCConfig } from "./oauth.js"

/** The claims of an Azure AD (Microsoft Entra ID) v2.0 ID Token. */
export type AzureADProfile = MicrosoftEntraIDProfile

/**
 * Sign in with Azure Active Directory (deprecated: use Microsoft Entra ID).
 *
 * @param options `clientId`, `clientSecret` and `issuer` or `tenantId`, as for Microsoft Entra ID
 *   (default: `AUTH_AZURE_AD_ID`, `_SECRET`, `_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Azure AD](https://authjs.dev/reference/core/providers/azure-ad)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 * @deprecated Use `@tessera/core/providers/microsoft-entra-id`.
 */
export default function AzureAD<P extends AzureADProfile = AzureADProfile>(
  options: MicrosoftEntraIDOptions<P> = {},
): OIDCConfig<P> {
  return { ...MicrosoftEntraID(options), id: "azure-ad", name: "Azure Active Directory" }
}
