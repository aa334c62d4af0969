/**
 * Sign in with ClickUp (OAuth 2.0).
 *
 * Create an OAuth app in ClickUp (Settings -> Apps) with
 * `https://<your app>/auth/callback/click-up` as its redirect URL.
 * `clientId`/`clientSecret` default to `AUTH_CLICK_UP_ID`/`AUTH_CLICK_UP_SECRET`.
 *
 * @example
 * ```ts
 * import ClickUp from "@tessera/core/providers/click-up"
 * ClickUp({ clientId: process.env.CLICKUP_ID, clientSecret: process.env.CLICKUP_SECRET })
 * ```
 *
 * ClickUp's own ways, handled here:
 * - No PKCE and no scopes: the check is `state`, and no `scope` is sent.
 * - Client credentials go with the code in the token request's body
 *   (`client_id`, `client_secret`, `code`).
 * - The token response is only `{ access_token }`, with no `token_type`
 *   (OAuth 2.0 requires one): the token is a bearer token, and never expires.
 * - `GET /api/v2/user` answers the user inside `user`, with a numeric id. The
 *   user's image is its `profilePicture`, its e-mail `email` (Auth.js returns
 *   `profilePicture` and `color` as they are, and no e-mail).
 *
 * Verified e-mail: none. `user.email` comes with no flag saying ClickUp
 * verified it.
 * @see https://developer.clickup.com/docs/authentication#oauth-flow
 * @see https://developer.clickup.com/reference/getaccesstoken
 * @see https://developer.clickup.com/reference/getauthorizeduser
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import {
  withBearerTokenType,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** `GET /api/v2/user`: the authorized user, under `user`. */
export interface ClickUpProfile {
  user: {
    id: number
    username: string | null
    email: string
    color: string | null
    profilePicture: string | null
    initials: string
    week_start_day: number | null
    global_font_support: boolean
    timezone: string
    [field: string]: ProviderClaim
  }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with ClickUp (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_CLICK_UP_ID`,
 *   `AUTH_CLICK_UP_SECRET`), and any option of the generic OAuth provider to override
 *   (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: ClickUp](https://authjs.dev/reference/core/providers/click-up)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function ClickUp<P extends ClickUpProfile = ClickUpProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "click-up",
    name: "ClickUp",
    type: "oauth",
    authorization: "https://app.clickup.com/api",
    token: { url: "https://api.clickup.com/api/v2/oauth/token", conform: withBearerTokenType },
    userinfo: "https://api.clickup.com/api/v2/user",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: idText(profile.user.id),
        name: profile.user.username ?? null,
        email: profile.user.email ?? null,
        image: profile.user.profilePicture ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#7b68ee" },
    options: endpointUrlsAsObjects(options),
  }
}
