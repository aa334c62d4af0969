/**
 * Sign in with Mattermost (OAuth 2.0), on one Mattermost server.
 *
 * Enable OAuth 2.0 service provider in the System Console (Integrations,
 * Integration Management), then add an OAuth 2.0 application with
 * `https://<your app>/auth/callback/mattermost` as its callback URL. `issuer`
 * is the server's URL, e.g. `https://chat.example.com`. `clientId`,
 * `clientSecret` and `issuer` default to `AUTH_MATTERMOST_ID`, `_SECRET` and
 * `_ISSUER` (with `providers: [Mattermost]`, whose factory is then called with them).
 *
 * @example
 * ```ts
 * import Mattermost from "@tessera/core/providers/mattermost"
 * Mattermost({
 *   clientId: process.env.AUTH_MATTERMOST_ID,
 *   clientSecret: process.env.AUTH_MATTERMOST_SECRET,
 *   issuer: "https://chat.example.com",
 * })
 * ```
 *
 * Mattermost's ways, handled here:
 * - The endpoints are under the server's URL (`/oauth/authorize`,
 *   `/oauth/access_token`, `/api/v4/users/me`); Mattermost sends no `iss` to check.
 * - The client id and secret go in the token request's body
 *   (`client_secret_post`); `state` is sent and checked besides PKCE.
 * - The name is the user name, else first and last name.
 *
 * Verified e-mail: `email` when `email_verified` is true: the server's own
 * record that the address was confirmed (or that the administrator, or the
 * SSO service the account came from, vouched for it).
 * @see https://developers.mattermost.com/integrate/apps/authentication/oauth2/
 * @see https://api.mattermost.com/#tag/users/operation/GetUser
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /api/v4/users/me`. */
export interface MattermostProfile {
  id: string
  /** Milliseconds since the epoch, as are `update_at`, `delete_at` and `last_password_update`. */
  create_at: number
  update_at: number
  delete_at: number
  username: string
  auth_data?: string
  auth_service: string
  email: string
  email_verified: boolean
  nickname: string
  first_name: string
  last_name: string
  position: string
  roles: string
  notify_props?: Record<string, string>
  last_password_update?: number
  locale: string
  timezone?: { automaticTimezone: string; manualTimezone: string; useAutomaticTimezone: string }
  disable_welcome_email?: boolean
  terms_of_service_id?: string
  terms_of_service_create_at?: number
  [claim: string]: ProviderClaim
}

export interface MattermostOptions<P> extends OAuthUserConfig<P> {
  /** The Mattermost server, e.g. `https://chat.example.com`. Required. */
  issuer?: string
}

/**
 * Sign in with Mattermost (OAuth 2.0), on one Mattermost server.
 *
 * @param options `clientId`, `clientSecret` and `issuer` (the server's URL; default
 *   `AUTH_MATTERMOST_ID`, `AUTH_MATTERMOST_SECRET`, `AUTH_MATTERMOST_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Mattermost](https://authjs.dev/reference/core/providers/mattermost)
 * @see https://developers.mattermost.com/integrate/apps/authentication/oauth2/
 */
export default function Mattermost<P extends MattermostProfile = MattermostProfile>(
  options: MattermostOptions<P> = {},
): OAuthConfig<P> {
  // The server is where the endpoints live; with none, resolution says the endpoints are missing.
  const { issuer, ...rest } = options
  const base = issuer?.replace(/\/+$/, "")
  const endpoints = base
    ? {
        authorization: `${base}/oauth/authorize`,
        token: `${base}/oauth/access_token`,
        userinfo: `${base}/api/v4/users/me`,
      }
    : {}
  return {
    id: "mattermost",
    name: "Mattermost",
    type: "oauth",
    ...endpoints,
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      const fullName = [profile.first_name, profile.last_name].filter(Boolean).join(" ")
      return {
        id: profile.id,
        name: profile.username || fullName || null,
        email: profile.email || null,
        image: null,
      }
    },
    verifiedEmail: (profile) =>
      profile.email_verified === true && profile.email ? profile.email : null,
    style: { brandColor: "#1e325c" },
    options: endpointUrlsAsObjects(rest),
  }
}
