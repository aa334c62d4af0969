/**
 * Sign in with HubSpot (OAuth 2.0).
 *
 * Create a public app in a HubSpot developer account with
 * `https://<your app>/auth/callback/hubspot` as its redirect URL and the
 * `oauth` scope. `clientId`/`clientSecret` default to
 * `AUTH_HUBSPOT_ID`/`AUTH_HUBSPOT_SECRET`.
 *
 * @example
 * ```ts
 * import HubSpot from "@tessera/core/providers/hubspot"
 * HubSpot({ clientId: process.env.AUTH_HUBSPOT_ID, clientSecret: process.env.AUTH_HUBSPOT_SECRET })
 * ```
 *
 * HubSpot's own ways, handled here: the client secret goes in the token
 * request's body; there is no userinfo endpoint: the user is read from the
 * access token's metadata, `GET /oauth/v1/access-tokens/<token>` (the token in
 * the path, HubSpot's design), whose `user` is the user's e-mail address and
 * `user_id` the id. HubSpot has no profile picture there.
 *
 * Verified e-mail: none. `user` comes with no flag saying HubSpot verified it.
 * @see https://developers.hubspot.com/docs/api/oauth-quickstart-guide
 * @see https://developers.hubspot.com/docs/api/oauth/tokens
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import {
  requestUserinfo,
  type OAuthConfig,
  type OAuthUserConfig,
  type UserinfoRequestContext,
  type ProviderClaim,
} from "./oauth.js"

/** The access token's metadata from `GET /oauth/v1/access-tokens/<token>`. */
export interface HubSpotProfile {
  token: string
  /** The user's e-mail address. */
  user: string
  user_id: number
  hub_domain: string
  hub_id: number
  app_id: number
  scopes: string[]
  expires_in: number
  token_type: string
  [claim: string]: ProviderClaim
}

function requestTokenInfo(context: UserinfoRequestContext) {
  const base = context.provider.userinfo?.url ?? ""
  const token = encodeURIComponent(String(context.tokens.access_token))
  return requestUserinfo(context, { url: `${base.replace(/\/+$/, "")}/${token}`, bearer: false })
}

/**
 * Sign in with HubSpot (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_HUBSPOT_ID`, `AUTH_HUBSPOT_SECRET`), and any OAuth option to override.
 * @see [Auth.js: HubSpot](https://authjs.dev/reference/core/providers/hubspot)
 * @see https://developers.hubspot.com/docs/api/oauth-quickstart-guide
 * @see https://developers.hubspot.com/docs/api/oauth/tokens
 */
export default function HubSpot<P extends HubSpotProfile = HubSpotProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "hubspot",
    name: "HubSpot",
    type: "oauth",
    authorization: { url: "https://app.hubspot.com/oauth/authorize", params: { scope: "oauth" } },
    token: "https://api.hubapi.com/oauth/v1/token",
    userinfo: { url: "https://api.hubapi.com/oauth/v1/access-tokens", request: requestTokenInfo },
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return { id: idText(profile.user_id), name: profile.user, email: profile.user, image: null }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#ff7a59" },
    options: endpointUrlsAsObjects(options),
  }
}
