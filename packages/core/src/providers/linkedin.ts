/**
 * Sign in with LinkedIn (OpenID Connect, "Sign In with LinkedIn using OpenID Connect").
 *
 * Add `https://<your app>/auth/callback/linkedin` to the authorized redirect
 * URLs of your LinkedIn app (product "Sign In with LinkedIn using OpenID
 * Connect"). `clientId`/`clientSecret` default to
 * `AUTH_LINKEDIN_ID`/`AUTH_LINKEDIN_SECRET`.
 *
 * @example
 * ```ts
 * import LinkedIn from "@tessera/core/providers/linkedin"
 * LinkedIn({ clientId: process.env.LINKEDIN_ID, clientSecret: process.env.LINKEDIN_SECRET })
 * ```
 *
 * LinkedIn's issuer has a path (`https://www.linkedin.com/oauth`), so its
 * metadata lives at `https://www.linkedin.com/oauth/.well-known/openid-configuration`.
 * Web apps get no PKCE there: the checks are `state` and `nonce`, and the
 * client secret goes in the request body.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2#response-body-schema
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

/** The claims of LinkedIn's ID Token. */
export interface LinkedInProfile {
  iss: string
  aud: string
  iat: number
  exp: number
  sub: string
  name: string
  given_name: string
  family_name: string
  picture?: string
  locale?: string | { country: string; language: string }
  email?: string
  email_verified?: boolean
  [claim: string]: ProviderClaim
}

/**
 * Sign in with LinkedIn (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_LINKEDIN_ID`,
 *   `AUTH_LINKEDIN_SECRET`), and any
 *   option of the generic OAuth provider to override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: LinkedIn](https://authjs.dev/reference/core/providers/linkedin)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function LinkedIn<P extends LinkedInProfile = LinkedInProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "linkedin",
    name: "LinkedIn",
    type: "oidc",
    issuer: "https://www.linkedin.com/oauth",
    wellKnown: "https://www.linkedin.com/oauth/.well-known/openid-configuration",
    authorization: { params: { scope: "openid profile email" } },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state", "nonce"],
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#0a66c2" },
    options: endpointUrlsAsObjects(options),
  }
}
