/**
 * Sign in with Kinde (OpenID Connect).
 *
 * Add a back-end web application in Kinde with
 * `https://<your app>/auth/callback/kinde` as an allowed callback URL. The
 * issuer is your Kinde domain, `https://<your business>.kinde.com` (or your
 * custom domain). `clientId`, `clientSecret` and `issuer` default to
 * `AUTH_KINDE_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Kinde from "@tessera/core/providers/kinde"
 * Kinde({
 *   clientId: process.env.AUTH_KINDE_ID,
 *   clientSecret: process.env.AUTH_KINDE_SECRET,
 *   issuer: "https://acme.kinde.com",
 * })
 * ```
 *
 * The checks are `state` and PKCE (no `nonce`), as in Auth.js. The name is
 * `name`, else given and family name; the image `picture`.
 *
 * Verified e-mail: `email` when `email_verified` is true; an ID Token without
 * the flag vouches for nothing.
 * @see https://docs.kinde.com/build/tokens/about-id-tokens/
 * @see https://docs.kinde.com/
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of a Kinde ID Token. */
export interface KindeProfile {
  iss: string
  aud: string | string[]
  sub: string
  iat: number
  exp: number
  azp?: string
  auth_time?: number
  at_hash?: string
  name?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  org_codes?: string[]
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Kinde (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (your Kinde domain; default
 *   `AUTH_KINDE_ID`, `AUTH_KINDE_SECRET`, `AUTH_KINDE_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Kinde](https://authjs.dev/reference/core/providers/kinde)
 * @see https://docs.kinde.com/build/tokens/about-id-tokens/
 */
export default function Kinde<P extends KindeProfile = KindeProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "kinde",
    name: "Kinde",
    type: "oidc",
    checks: ["state", "pkce"],
    profile(profile) {
      const fullName = [profile.given_name, profile.family_name].filter(Boolean).join(" ")
      return {
        id: profile.sub,
        name: profile.name ?? (fullName || null),
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#0f0f0f" },
    options: endpointUrlsAsObjects(options),
  }
}
