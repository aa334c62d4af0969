/**
 * Sign in with Zoho Accounts (OAuth 2.0).
 *
 * In the Zoho API Console, add a Server-based Application with
 * `https://<your app>/auth/callback/zoho` as an authorized redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_ZOHO_ID`/`AUTH_ZOHO_SECRET`.
 *
 * @example
 * ```ts
 * import Zoho from "@tessera/core/providers/zoho"
 * Zoho({ clientId: process.env.ZOHO_ID, clientSecret: process.env.ZOHO_SECRET })
 * ```
 *
 * Zoho's own ways, handled here:
 * - scope `AaaServer.profile.Read`; the user from `GET /oauth/user/info`, with
 *   `ZUID`, `First_Name`, `Last_Name`, `Display_Name` and `Email`;
 * - client credentials in the request body (`client_secret_post`), as documented;
 * - a refused code is answered with status 200 and `{ "error": "invalid_code" }`,
 *   which fails the sign-in like any error;
 * - Zoho documents no PKCE: `state` is checked as well.
 *
 * The endpoints are Zoho's US data centre (`accounts.zoho.com`), as in Auth.js. An
 * app registered in another one gives its URLs, e.g. `authorization:
 * "https://accounts.zoho.eu/oauth/v2/auth"` and likewise `token` and `userinfo`.
 *
 * Verified e-mail: none: `/oauth/user/info` has no flag.
 * @see https://www.zoho.com/accounts/protocol/oauth/web-server-applications.html
 * @see https://www.zoho.com/accounts/protocol/oauth/multi-dc.html
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET https://accounts.zoho.com/oauth/user/info`. */
export interface ZohoProfile {
  ZUID: number | string
  First_Name: string
  Last_Name: string
  Display_Name: string
  Email: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Zoho (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_ZOHO_ID`, `AUTH_ZOHO_SECRET`), and
 *   any option of the generic OAuth provider to override (another data centre's endpoints).
 * @see [Auth.js: Zoho](https://authjs.dev/reference/core/providers/zoho)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Zoho<P extends ZohoProfile = ZohoProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "zoho",
    name: "Zoho",
    type: "oauth",
    authorization: {
      url: "https://accounts.zoho.com/oauth/v2/auth",
      params: { scope: "AaaServer.profile.Read" },
    },
    token: "https://accounts.zoho.com/oauth/v2/token",
    userinfo: "https://accounts.zoho.com/oauth/user/info",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      const fullName = [profile.First_Name, profile.Last_Name].filter(Boolean).join(" ")
      return {
        id: idText(profile.ZUID),
        name: fullName || profile.Display_Name || null,
        email: profile.Email || null,
        image: null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#e42527" },
    options: endpointUrlsAsObjects(options),
  }
}
