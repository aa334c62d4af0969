/**
 * Sign in with Atlassian (OAuth 2.0 "3LO").
 *
 * In the Atlassian developer console, create an OAuth 2.0 integration, give it
 * the User identity API (`read:me`) and add
 * `https://<your app>/auth/callback/atlassian` as its callback URL.
 * `clientId`/`clientSecret` default to `AUTH_ATLASSIAN_ID`/`AUTH_ATLASSIAN_SECRET`.
 *
 * @example
 * ```ts
 * import Atlassian from "@tessera/core/providers/atlassian"
 * Atlassian({ clientId: process.env.AUTH_ATLASSIAN_ID, clientSecret: process.env.AUTH_ATLASSIAN_SECRET })
 * // Jira access too, with a refresh token:
 * Atlassian({ authorization: { params: { scope: "read:me read:jira-work offline_access" } } })
 * ```
 *
 * The authorization carries `audience=api.atlassian.com` and the scope
 * `read:me`; the check is `state`. The profile is `GET https://api.atlassian.com/me`.
 *
 * Verified e-mail: `email` when the profile says `email_verified: true`; none
 * otherwise.
 * @see https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/
 * @see https://developer.atlassian.com/cloud/confluence/oauth-2-3lo-apps/#how-do-i-retrieve-the-public-profile-of-the-authenticated-user-
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The user from `GET https://api.atlassian.com/me`. */
export interface AtlassianProfile {
  account_id: string
  account_type?: string
  account_status?: string
  name: string
  nickname?: string
  email: string
  email_verified?: boolean
  picture: string
  zoneinfo?: string
  locale?: string
  extended_profile?: Record<string, unknown>
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Atlassian (OAuth 2.0 "3LO").
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_ATLASSIAN_ID`, `AUTH_ATLASSIAN_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Atlassian](https://authjs.dev/reference/core/providers/atlassian)
 * @see https://developer.atlassian.com/cloud/jira/platform/oauth-2-3lo-apps/
 * @see https://developer.atlassian.com/cloud/confluence/oauth-2-3lo-apps/#how-do-i-retrieve-the-public-profile-of-the-authenticated-user-
 */
export default function Atlassian<P extends AtlassianProfile = AtlassianProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "atlassian",
    name: "Atlassian",
    type: "oauth",
    authorization: {
      url: "https://auth.atlassian.com/authorize",
      params: { audience: "api.atlassian.com", scope: "read:me" },
    },
    token: "https://auth.atlassian.com/oauth/token",
    userinfo: "https://api.atlassian.com/me",
    checks: ["state"],
    profile(profile) {
      return {
        id: profile.account_id,
        name: profile.name ?? profile.nickname ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#0052cc" },
    options: endpointUrlsAsObjects(options),
  }
}
