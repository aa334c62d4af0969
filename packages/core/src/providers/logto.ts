/**
 * Sign in with Logto (OpenID Connect).
 *
 * Create a "Traditional Web" application in the Logto console with
 * `https://<your app>/auth/callback/logto` as a redirect URI. The issuer is
 * your tenant's, `https://<tenant>.logto.app/oidc` (or your own Logto's
 * `/oidc`). `clientId`, `clientSecret` and `issuer` default to `AUTH_LOGTO_ID`,
 * `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Logto from "@tessera/core/providers/logto"
 * Logto({
 *   clientId: process.env.AUTH_LOGTO_ID,
 *   clientSecret: process.env.AUTH_LOGTO_SECRET,
 *   issuer: "https://acme.logto.app/oidc",
 * })
 * ```
 *
 * The scopes are `offline_access openid email profile`; the name falls back to
 * the user name.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://docs.logto.io/quick-starts/next-auth
 * @see https://docs.logto.io/docs/references/openid-connect/id-token-claims/
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of a Logto ID Token. */
export interface LogtoProfile {
  sub: string
  name?: string | null
  username?: string | null
  picture?: string | null
  email?: string | null
  email_verified?: boolean
  phone_number?: string | null
  phone_number_verified?: boolean
  organizations?: string[]
  organization_roles?: string[]
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Logto (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_LOGTO_ID`, `AUTH_LOGTO_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Logto](https://authjs.dev/reference/core/providers/logto)
 * @see https://docs.logto.io/quick-starts/next-auth
 * @see https://docs.logto.io/docs/references/openid-connect/id-token-claims/
 */
export default function Logto<P extends LogtoProfile = LogtoProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "logto",
    name: "Logto",
    type: "oidc",
    authorization: { params: { scope: "offline_access openid email profile" } },
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#5d34f2" },
    options: endpointUrlsAsObjects(options),
  }
}
