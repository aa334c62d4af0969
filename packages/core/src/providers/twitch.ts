/**
 * Sign in with Twitch (OpenID Connect).
 *
 * Register `https://<your app>/auth/callback/twitch` as an OAuth redirect URL
 * of your Twitch application. `clientId`/`clientSecret` default to
 * `AUTH_TWITCH_ID`/`AUTH_TWITCH_SECRET`.
 *
 * @example
 * ```ts
 * import Twitch from "@tessera/core/providers/twitch"
 * Twitch({ clientId: process.env.TWITCH_ID, clientSecret: process.env.TWITCH_SECRET })
 * ```
 *
 * Twitch's own ways, handled here:
 * - The ID Token carries `email`, `picture` and `preferred_username` only when
 *   asked for with the `claims` authorization parameter (sent by default).
 * - The token response's `scope` is a JSON array, not the space-separated
 *   string OAuth 2.0 specifies; it is joined before validation.
 * - Client credentials go in the request body (`client_secret_post`).
 *
 * Verified e-mail: `email` when `email_verified` is true (both asked for in
 * the default `claims` request).
 * @see https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/#requesting-claims
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of Twitch's ID Token (with the default `claims` request). */
export interface TwitchProfile {
  iss: "https://id.twitch.tv/oauth2"
  aud: string
  sub: string
  iat: number
  exp: number
  azp?: string
  nonce?: string
  preferred_username: string
  email?: string
  email_verified?: boolean
  picture?: string
  updated_at?: string
  [claim: string]: ProviderClaim
}

/** `scope: ["openid", "user:read:email"]` -> `scope: "openid user:read:email"`. */
async function conformScope(response: Response): Promise<Response | undefined> {
  if (response.status !== 200) return undefined
  const body: unknown = await response.json().catch(() => undefined)
  if (!body || typeof body !== "object" || !Array.isArray((body as { scope?: unknown }).scope))
    return undefined
  const scope = (body as { scope: unknown[] }).scope.map(String).join(" ")
  return new Response(JSON.stringify({ ...body, scope }), {
    status: 200,
    headers: { "content-type": "application/json" },
  })
}

/**
 * Sign in with Twitch (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_TWITCH_ID`, `AUTH_TWITCH_SECRET`),
 *   and any
 *   option of the generic OAuth provider to override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Twitch](https://authjs.dev/reference/core/providers/twitch)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function Twitch<P extends TwitchProfile = TwitchProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "twitch",
    name: "Twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    authorization: {
      params: {
        scope: "openid user:read:email",
        claims: {
          id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
        },
      },
    },
    token: { conform: conformScope },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state", "nonce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#9146ff" },
    options: endpointUrlsAsObjects(options),
  }
}
