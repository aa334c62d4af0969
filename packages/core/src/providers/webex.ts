/**
 * Sign in with Webex (OAuth 2.0), as a Webex Integration.
 *
 * In the Webex developer portal, create an Integration with
 * `https://<your app>/auth/callback/webex` as a redirect URI and the scopes
 * `spark:kms` and `spark:people_read`. `clientId`/`clientSecret` default to
 * `AUTH_WEBEX_ID`/`AUTH_WEBEX_SECRET`. `apiBaseUrl` (default
 * `https://webexapis.com/v1`) points at another Webex API deployment.
 *
 * @example
 * ```ts
 * import Webex from "@tessera/core/providers/webex"
 * Webex({ clientId: process.env.WEBEX_ID, clientSecret: process.env.WEBEX_SECRET })
 * ```
 *
 * Webex's own ways, handled here:
 * - client credentials in the request body (`client_secret_post`), as documented;
 * - a token response without `token_type` is taken as bearer;
 * - the user from `GET /people/me`: `emails` is a list (the first is the user's
 *   address), the name `displayName`, the picture `avatar`.
 *
 * Verified e-mail: none: `emails` has no flag.
 * @see https://developer.webex.com/docs/integrations
 * @see https://developer.webex.com/docs/api/v1/people/get-my-own-details
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  withBearerTokenType,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The person from `GET /people/me`. */
export interface WebexProfile {
  id: string
  emails: string[]
  phoneNumbers?: Array<{ type: string; value: string; primary?: boolean }>
  displayName?: string
  nickName?: string
  firstName?: string
  lastName?: string
  avatar?: string
  orgId?: string
  created?: string
  lastModified?: string
  lastActivity?: string
  status?: string
  type?: "person" | "bot" | "appuser"
  [claim: string]: ProviderClaim
}

export interface WebexOptions<P> extends OAuthUserConfig<P> {
  /** The Webex API base URL. Default `https://webexapis.com/v1`. */
  apiBaseUrl?: string
}

/**
 * Sign in with Webex (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_WEBEX_ID`, `AUTH_WEBEX_SECRET`),
 *   `apiBaseUrl`, and any option of the generic OAuth provider to override.
 * @see [Auth.js: Webex](https://authjs.dev/reference/core/providers/webex)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Webex<P extends WebexProfile = WebexProfile>(
  options: WebexOptions<P> = {},
): OAuthConfig<P> {
  const { apiBaseUrl, ...rest } = options
  const base = (apiBaseUrl ?? "https://webexapis.com/v1").replace(/\/+$/, "")
  return {
    id: "webex",
    name: "Webex",
    type: "oauth",
    authorization: {
      url: `${base}/authorize`,
      params: { scope: "spark:kms spark:people_read" },
    },
    // Webex's token responses have not always named their type; its tokens are bearer tokens.
    token: { url: `${base}/access_token`, conform: withBearerTokenType },
    userinfo: `${base}/people/me`,
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.displayName ?? null,
        email: profile.emails?.[0] ?? null,
        image: profile.avatar ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#07c1e4" },
    options: endpointUrlsAsObjects(rest),
  }
}
