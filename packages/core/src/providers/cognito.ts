/**
 * Sign in with Amazon Cognito user pools (OpenID Connect).
 *
 * Create an app client with a client secret, the Authorization code grant, the
 * `openid`, `profile` and `email` scopes, and
 * `https://<your app>/auth/callback/cognito` as an allowed callback URL. The
 * issuer is the user pool: `https://cognito-idp.<region>.amazonaws.com/<pool id>`
 * (not the hosted UI domain). `clientId`, `clientSecret` and `issuer` default
 * to `AUTH_COGNITO_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Cognito from "@tessera/core/providers/cognito"
 * Cognito({
 *   clientId: process.env.AUTH_COGNITO_ID,
 *   clientSecret: process.env.AUTH_COGNITO_SECRET,
 *   issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI",
 * })
 * ```
 *
 * The endpoints (on the pool's hosted UI domain) come from the issuer's
 * discovery document; the profile is the ID Token. The name is `name`, else
 * `preferred_username`, else `cognito:username` (a pool's ID Token carries
 * `name` only when the user has one; Auth.js then has no name).
 *
 * Verified e-mail: `email` when `email_verified` is true, or the string
 * `"true"` (Cognito's user attributes are strings, and its userinfo endpoint
 * sends them so).
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/userinfo-endpoint.html
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OIDCConfig, OIDCUserConfig, ProviderClaim } from "./oauth.js"

/** The claims of a Cognito ID Token. */
export interface CognitoProfile {
  sub: string
  iss: string
  aud: string
  token_use: "id"
  auth_time: number
  iat: number
  exp: number
  "cognito:username": string
  "cognito:groups"?: string[]
  email?: string
  email_verified?: boolean | "true" | "false"
  name?: string
  given_name?: string
  family_name?: string
  preferred_username?: string
  picture?: string
  phone_number?: string
  phone_number_verified?: boolean | "true" | "false"
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Amazon Cognito user pools (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_COGNITO_ID`, `AUTH_COGNITO_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Cognito](https://authjs.dev/reference/core/providers/cognito)
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html
 * @see https://docs.aws.amazon.com/cognito/latest/developerguide/userinfo-endpoint.html
 */
export default function Cognito<P extends CognitoProfile = CognitoProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "cognito",
    name: "Cognito",
    type: "oidc",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? profile.preferred_username ?? profile["cognito:username"] ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: (profile) =>
      (profile.email_verified === true || profile.email_verified === "true") && profile.email
        ? profile.email
        : null,
    style: { brandColor: "#c17b9e" },
    options: endpointUrlsAsObjects(options),
  }
}
