/**
 * Sign in with Microsoft Entra ID (formerly Azure AD), OpenID Connect.
 *
 * Register `https://<your app>/auth/callback/microsoft-entra-id` as a Web
 * redirect URI of your app registration. `clientId`, `clientSecret` and
 * `issuer` default to `AUTH_MICROSOFT_ENTRA_ID_ID`, `_SECRET` and `_ISSUER`.
 *
 * The issuer is tenant-specific: `https://login.microsoftonline.com/<tenant id>/v2.0`
 * (give it, or `tenantId`). ID Tokens are checked against that tenant: a user
 * of another tenant cannot sign in, and a token's `tid` must be its issuer's
 * tenant (checked before any `profile` callback, yours too). The multi-tenant
 * endpoints (`common`, `organizations`, `consumers`) publish no single issuer
 * to check tokens against and are not supported: as `tenantId` or in `issuer`
 * they throw when the provider is made. So does `idToken: false`: the profile is
 * always the ID Token's, as the userinfo endpoint carries no `tid` or `iss` to check.
 *
 * @example
 * ```ts
 * import MicrosoftEntraID from "@tessera/core/providers/microsoft-entra-id"
 * MicrosoftEntraID({
 *   clientId: process.env.ENTRA_ID,
 *   clientSecret: process.env.ENTRA_SECRET,
 *   issuer: `https://login.microsoftonline.com/${process.env.ENTRA_TENANT_ID}/v2.0`,
 * })
 * ```
 *
 * Verified e-mail: never the `email` claim alone, which a tenant can set to any
 * address. Only when the optional `xms_edov` claim ("email domain owner
 * verified") is true is `email` reported; add `xms_edov` to the ID Token under
 * Token configuration (optional claims) of your app registration, or no address
 * is ever vouched for.
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/optional-claims-reference
 * @see https://learn.microsoft.com/en-us/entra/identity-platform/migrate-off-email-claim-authorization
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OIDCConfig, OIDCUserConfig, ProviderClaim } from "./oauth.js"

/** The claims of an Entra ID v2.0 ID Token. */
export interface MicrosoftEntraIDProfile {
  sub: string
  /** The user's object id, the same for every app in the tenant. */
  oid: string
  /** The tenant id. */
  tid: string
  name: string
  preferred_username: string
  email?: string
  given_name?: string
  family_name?: string
  ver: "2.0"
  iss: string
  aud: string
  iat: number
  nbf: number
  exp: number
  nonce?: string
  uti?: string
  rh?: string
  login_hint?: string
  roles?: string[]
  groups?: string[]
  /** Optional claim: true when the domain of `email` is verified by its owner. */
  xms_edov?: boolean
  [claim: string]: ProviderClaim
}

export interface MicrosoftEntraIDOptions<P> extends OIDCUserConfig<P> {
  /** The directory (tenant) id; sets `issuer` to `https://login.microsoftonline.com/<tenantId>/v2.0`. */
  tenantId?: string
}

const MULTI_TENANT = new Set(["common", "organizations", "consumers"])

/** A tenant segment that names no one tenant: a multi-tenant alias, or the `{tenantid}` template. */
function notATenant(tenant: string): boolean {
  return MULTI_TENANT.has(tenant.toLowerCase()) || /[{}]|%7b|%7d/i.test(tenant)
}

/** The tenant an issuer URL names: its first path segment (`/<tenant>/v2.0`, v1 `/<tenant>/`). */
function issuerTenant(issuer: unknown): string | undefined {
  if (typeof issuer !== "string") return undefined
  try {
    return new URL(issuer).pathname.split("/")[1] || undefined
  } catch {
    return undefined
  }
}

/**
 * Entra signs every tenant's tokens with the same keys: the `tid` a token names must be the
 * tenant of the `iss` that was checked against the configured issuer, or the claims of one
 * tenant would pass as another's. Throws (the sign-in fails with `OAuthProfileParseError`).
 */
function checkTenant(profile: MicrosoftEntraIDProfile): void {
  // A profile read from the userinfo endpoint (`idToken: false` set over the made provider).
  if (profile.tid === undefined && profile.iss === undefined)
    throw new TypeError(
      "Microsoft Entra ID: the profile has no tid or iss; the tenant check needs the ID Token (idToken: false is not supported)",
    )
  const tenant = issuerTenant(profile.iss)
  if (typeof profile.tid !== "string" || tenant?.toLowerCase() !== profile.tid.toLowerCase())
    throw new TypeError("Microsoft Entra ID: the token's tid is not the tenant of its issuer")
}

/**
 * Sign in with Microsoft Entra ID (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer`
 *   (`https://login.microsoftonline.com/<tenant>/v2.0`;
 *   default: `AUTH_MICROSOFT_ENTRA_ID_ID`, `_SECRET`, `_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Microsoft Entra ID](https://authjs.dev/reference/core/providers/microsoft-entra-id)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function MicrosoftEntraID<
  P extends MicrosoftEntraIDProfile = MicrosoftEntraIDProfile,
>(options: MicrosoftEntraIDOptions<P> = {}): OIDCConfig<P> {
  const { tenantId, ...rest } = options
  if (tenantId !== undefined && MULTI_TENANT.has(tenantId.toLowerCase())) {
    throw new TypeError(
      `Microsoft Entra ID: "${tenantId}" is not a tenant id; use your directory (tenant) id`,
    )
  }
  // The tenant check reads `tid` and `iss`, which only the ID Token carries: the userinfo
  // endpoint (Microsoft Graph) sends neither, so every sign-in would be refused at runtime.
  if (rest.idToken === false) {
    throw new TypeError(
      "Microsoft Entra ID: idToken: false is not supported: the tenant check needs the ID Token " +
        "(its tid and iss), and the userinfo endpoint carries neither; remove idToken: false",
    )
  }
  const { profile: ownProfile, ...userOptions } = endpointUrlsAsObjects(rest)
  // The multi-tenant endpoints as the issuer: discovery there names `{tenantid}`, no issuer to
  // check tokens against, and any tenant's users could sign in with any `email` ("nOAuth").
  const configured = issuerTenant(userOptions.issuer)
  if (configured !== undefined && notATenant(configured)) {
    throw new TypeError(
      `Microsoft Entra ID: the issuer's "${configured}" is not a tenant id; use your directory (tenant) id`,
    )
  }
  if (tenantId && userOptions.issuer === undefined)
    userOptions.issuer = `https://login.microsoftonline.com/${tenantId}/v2.0`
  return {
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    type: "oidc",
    authorization: { params: { scope: "openid profile email" } },
    // Credentials in the body, as Microsoft's token endpoint documents (Auth.js: HTTP Basic, also accepted).
    client: { token_endpoint_auth_method: "client_secret_post" },
    // An app's own `profile` runs after the tenant check too: it replaces this one, not the check.
    profile(profile, tokens) {
      checkTenant(profile)
      if (ownProfile) return ownProfile(profile, tokens)
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: null,
      }
    },
    verifiedEmail: (profile) => (profile.xms_edov === true && profile.email ? profile.email : null),
    style: { brandColor: "#0072c6" },
    options: userOptions,
  }
}
