/**
 * Sign in with Box (OAuth 2.0).
 *
 * Create a Custom App with "User Authentication (OAuth 2.0)" in the Box
 * developer console and add `https://<your app>/auth/callback/box` as its
 * redirect URI. `clientId`/`clientSecret` default to `AUTH_BOX_ID`/`AUTH_BOX_SECRET`.
 *
 * @example
 * ```ts
 * import Box from "@tessera/core/providers/box"
 * Box({ clientId: process.env.AUTH_BOX_ID, clientSecret: process.env.AUTH_BOX_SECRET })
 * ```
 *
 * Box takes no `scope` parameter by default (the app's scopes apply) and
 * expects the client id and secret in the token request's body
 * (`client_secret_post`). The profile is `GET /2.0/users/me`, whose `login` is
 * the user's e-mail address.
 *
 * Verified e-mail: none. `login` comes with no flag saying Box verified it.
 * @see https://developer.box.com/guides/authentication/oauth2/without-sdk/
 * @see https://developer.box.com/reference/get-users-me/
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /2.0/users/me`. */
export interface BoxProfile {
  type: "user"
  id: string
  name: string
  /** The user's e-mail address. */
  login: string
  created_at: string
  modified_at: string
  language: string
  timezone: string
  space_amount: number
  space_used: number
  max_upload_size: number
  status: string
  job_title: string
  phone: string
  address: string
  avatar_url: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Box (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_BOX_ID`, `AUTH_BOX_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Box](https://authjs.dev/reference/core/providers/box)
 * @see https://developer.box.com/guides/authentication/oauth2/without-sdk/
 * @see https://developer.box.com/reference/get-users-me/
 */
export default function Box<P extends BoxProfile = BoxProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "box",
    name: "Box",
    type: "oauth",
    authorization: "https://account.box.com/api/oauth2/authorize",
    token: "https://api.box.com/oauth2/token",
    userinfo: "https://api.box.com/2.0/users/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.name ?? null,
        email: profile.login ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#0075c9" },
    options: endpointUrlsAsObjects(options),
  }
}
