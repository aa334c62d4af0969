/**
 * Sign in with Google (OpenID Connect).
 *
 * Register `https://<your app>/auth/callback/google` as an authorized redirect
 * URI of your OAuth client. `clientId`/`clientSecret` default to
 * `AUTH_GOOGLE_ID`/`AUTH_GOOGLE_SECRET`.
 *
 * @example
 * ```ts
 * import Google from "@tessera/core/providers/google"
 * Google({ clientId: process.env.GOOGLE_ID, clientSecret: process.env.GOOGLE_SECRET })
 * // A refresh token, and the consent screen every time:
 * Google({ authorization: { params: { access_type: "offline", prompt: "consent" } } })
 * ```
 *
 * The profile is the ID Token. `hd` names the Workspace domain of the account;
 * check it (and `email_verified`) in the `signIn` callback to restrict sign-in
 * to your organisation.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload
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

/** The claims of Google's ID Token. */
export interface GoogleProfile {
  iss: string
  azp: string
  aud: string
  sub: string
  email: string
  email_verified: boolean
  at_hash?: string
  name: string
  picture: string
  given_name: string
  family_name?: string
  locale?: string
  /** The Google Workspace domain of the account, if any. */
  hd?: string
  iat: number
  exp: number
  nbf?: number
  jti?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Google (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_GOOGLE_ID`, `AUTH_GOOGLE_SECRET`),
 *   and any
 *   option of the generic OAuth provider to override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Google](https://authjs.dev/reference/core/providers/google)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 * @see [Google Identity: OpenID Connect](https://developers.google.com/identity/openid-connect/openid-connect)
 */
export default function Google<P extends GoogleProfile = GoogleProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "google",
    name: "Google",
    type: "oidc",
    issuer: "https://accounts.google.com",
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#1a73e8" },
    options: endpointUrlsAsObjects(options),
  }
}
