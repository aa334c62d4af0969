/**
 * Sign in with LINE (LINE Login v2.1, OpenID Connect).
 *
 * Create a LINE Login channel in the LINE Developers Console, enable the web
 * app, and add `https://<your app>/auth/callback/line` as a callback URL. For
 * e-mail addresses, apply for "Email address permission" under OpenID Connect.
 * `clientId`/`clientSecret` (Channel ID and Channel secret) default to
 * `AUTH_LINE_ID`/`AUTH_LINE_SECRET`.
 *
 * @example
 * ```ts
 * import LINE from "@tessera/core/providers/line"
 * LINE({ clientId: process.env.AUTH_LINE_ID, clientSecret: process.env.AUTH_LINE_SECRET })
 * ```
 *
 * LINE's own ways: ID Tokens are HS256, signed with the channel secret; the
 * channel id and secret go in the token request's body; the check is `state`.
 * The profile is the ID Token (`name`, `picture`, `email`).
 *
 * Verified e-mail: `email` when `email_verified` is true. LINE's ID Token
 * carries no `email_verified` claim, so in practice no address is vouched for.
 * @see https://developers.line.biz/en/docs/line-login/integrate-line-login/
 * @see https://developers.line.biz/en/docs/line-login/verify-id-token/#payload
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

/** The claims of LINE's ID Token. */
export interface LineProfile {
  iss: "https://access.line.me"
  sub: string
  aud: string
  exp: number
  iat: number
  auth_time?: number
  nonce?: string
  amr?: string[]
  name?: string
  picture?: string
  /** With the `email` scope and the channel's e-mail permission. */
  email?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with LINE (LINE Login v2.1, OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_LINE_ID`, `AUTH_LINE_SECRET`), and any OAuth option to override.
 * @see [Auth.js: LINE](https://authjs.dev/reference/core/providers/line)
 * @see https://developers.line.biz/en/docs/line-login/integrate-line-login/
 * @see https://developers.line.biz/en/docs/line-login/verify-id-token/#payload
 */
export default function LINE<P extends LineProfile = LineProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "line",
    name: "LINE",
    type: "oidc",
    issuer: "https://access.line.me",
    client: {
      id_token_signed_response_alg: "HS256",
      token_endpoint_auth_method: "client_secret_post",
    },
    checks: ["state"],
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#00c300" },
    options: endpointUrlsAsObjects(options),
  }
}
