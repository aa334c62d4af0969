/**
 * Sign in with FusionAuth (OpenID Connect).
 *
 * Create an application with the Authorization Code grant and
 * `https://<your app>/auth/callback/fusionauth` as an authorized redirect URL.
 * The issuer is your FusionAuth URL (its tenant's issuer). `clientId`,
 * `clientSecret` and `issuer` default to `AUTH_FUSIONAUTH_ID`, `_SECRET` and
 * `_ISSUER`; with several tenants, also give `tenantId`.
 *
 * @example
 * ```ts
 * import FusionAuth from "@tessera/core/providers/fusionauth"
 * FusionAuth({
 *   clientId: process.env.AUTH_FUSIONAUTH_ID,
 *   clientSecret: process.env.AUTH_FUSIONAUTH_SECRET,
 *   issuer: "https://auth.acme.example",
 *   tenantId: process.env.AUTH_FUSIONAUTH_TENANT_ID,
 * })
 * ```
 *
 * FusionAuth's own ways, handled here:
 * - `tenantId` selects the tenant's metadata (`?tenantId=` on the discovery
 *   URL) and goes along in the authorization request.
 * - The scopes are `openid offline_access email profile`; the checks PKCE and
 *   `state`.
 * - The token endpoint adds a `WWW-Authenticate` header to answers other than
 *   401, which a client must otherwise read as an authentication challenge; it
 *   is dropped from those answers.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/endpoints
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/tokens#id-token
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of a FusionAuth ID Token. */
export interface FusionAuthProfile {
  aud: string
  exp: number
  iat: number
  iss: string
  sub: string
  jti: string
  authenticationType: string
  email?: string
  email_verified?: boolean
  preferred_username?: string
  name?: string
  given_name?: string
  middle_name?: string
  family_name?: string
  picture?: string
  at_hash?: string
  c_hash?: string
  scope?: string
  sid?: string
  tid?: string
  applicationId?: string
  roles?: string[]
  [claim: string]: ProviderClaim
}

export interface FusionAuthOptions<P> extends OIDCUserConfig<P> {
  /** The tenant, when the FusionAuth instance has more than one. */
  tenantId?: string
}

/** FusionAuth sends `WWW-Authenticate` on token answers that are no challenge. */
async function withoutChallengeHeader(response: Response): Promise<Response | undefined> {
  if (response.status === 401 || !response.headers.has("www-authenticate")) return undefined
  const headers = new Headers(response.headers)
  headers.delete("www-authenticate")
  return new Response(await response.arrayBuffer(), { status: response.status, headers })
}

/**
 * Sign in with FusionAuth (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_FUSIONAUTH_ID`, `AUTH_FUSIONAUTH_SECRET`), and any OAuth option to override.
 * @see [Auth.js: FusionAuth](https://authjs.dev/reference/core/providers/fusionauth)
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/endpoints
 * @see https://fusionauth.io/docs/lifecycle/authenticate-users/oauth/tokens#id-token
 */
export default function FusionAuth<P extends FusionAuthProfile = FusionAuthProfile>(
  options: FusionAuthOptions<P> = {},
): OIDCConfig<P> {
  const { tenantId, ...rest } = options
  const userOptions = endpointUrlsAsObjects(rest)
  const issuer = userOptions.issuer?.replace(/\/+$/, "")
  if (tenantId && issuer && !userOptions.wellKnown)
    userOptions.wellKnown = `${issuer}/.well-known/openid-configuration?tenantId=${encodeURIComponent(tenantId)}`
  return {
    id: "fusionauth",
    name: "FusionAuth",
    type: "oidc",
    authorization: {
      params: { scope: "openid offline_access email profile", ...(tenantId ? { tenantId } : {}) },
    },
    token: { conform: withoutChallengeHeader },
    checks: ["pkce", "state"],
    profile(profile) {
      const parts = [profile.given_name, profile.middle_name, profile.family_name]
      return {
        id: profile.sub,
        name:
          profile.name ?? profile.preferred_username ?? (parts.filter(Boolean).join(" ") || null),
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#f58320" },
    options: userOptions,
  }
}
