/**
 * Sign in with GitLab (OAuth 2.0), gitlab.com or a self-managed instance.
 *
 * Register `https://<your app>/auth/callback/gitlab` as the redirect URI of
 * your GitLab application (scope `read_user`). `clientId`/`clientSecret`
 * default to `AUTH_GITLAB_ID`/`AUTH_GITLAB_SECRET`.
 *
 * @example
 * ```ts
 * import GitLab from "@tessera/core/providers/gitlab"
 * GitLab({ clientId: process.env.GITLAB_ID, clientSecret: process.env.GITLAB_SECRET })
 * // Self-managed:
 * GitLab({ baseUrl: "https://gitlab.example.com" })
 * ```
 * The account is the user's `id`, or `sub` when the profile is GitLab's OpenID
 * Connect userinfo (`userinfo: "<baseUrl>/oauth/userinfo"`, scope `openid`),
 * whose claims carry the same number as `sub` and have no `id` (as in Auth.js;
 * their e-mail counts as unverified: they carry no `confirmed_at`).
 * Verified e-mail: `email` once the account is confirmed (`confirmed_at` a timestamp);
 * GitLab's primary address is always one the user confirmed.
 * @see https://docs.gitlab.com/api/users/#get-the-current-user
 * @see https://docs.gitlab.com/integration/oauth_provider/
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /api/v4/user`. */
export interface GitLabProfile {
  id: number
  /** The user's id as text, in place of `id` when the profile is the OpenID Connect userinfo. */
  sub?: string
  username: string
  email: string
  name: string
  state: string
  avatar_url: string
  web_url: string
  created_at: string
  bio: string
  location?: string
  public_email: string
  skype: string
  linkedin: string
  twitter: string
  website_url: string
  organization: string
  job_title: string
  pronouns: string
  bot: boolean
  work_information?: string
  followers: number
  following: number
  local_time: string
  last_sign_in_at: string
  confirmed_at: string
  theme_id: number
  last_activity_on: string
  color_scheme_id: number
  projects_limit: number
  current_sign_in_at: string
  identities: Array<{ provider: string; extern_uid: string }>
  can_create_group: boolean
  can_create_project: boolean
  two_factor_enabled: boolean
  external: boolean
  private_profile: boolean
  commit_email: string
  shared_runners_minutes_limit: number
  extra_shared_runners_minutes_limit: number
  [claim: string]: ProviderClaim
}

/**
 * GitLab's `confirmed_at` is the timestamp the user confirmed their address, or `null`: only a
 * timestamp counts, not any truthy value (`true`, `1`, `"yes"`) a proxy or a fork might send.
 */
function confirmed(value: unknown): boolean {
  return typeof value === "string" && !Number.isNaN(Date.parse(value))
}

export interface GitLabOptions<P> extends OAuthUserConfig<P> {
  /** A self-managed instance, e.g. `https://gitlab.example.com`. Default `https://gitlab.com`. */
  baseUrl?: string
}

/**
 * Sign in with GitLab (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_GITLAB_ID`, `AUTH_GITLAB_SECRET`),
 *   and any
 *   option of the generic OAuth provider to override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: GitLab](https://authjs.dev/reference/core/providers/gitlab)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function GitLab<P extends GitLabProfile = GitLabProfile>(
  options: GitLabOptions<P> = {},
): OAuthConfig<P> {
  const { baseUrl: base, ...rest } = options
  const baseUrl = (base ?? "https://gitlab.com").replace(/\/+$/, "")
  return {
    id: "gitlab",
    name: "GitLab",
    type: "oauth",
    authorization: { url: `${baseUrl}/oauth/authorize`, params: { scope: "read_user" } },
    token: `${baseUrl}/oauth/token`,
    userinfo: `${baseUrl}/api/v4/user`,
    // Credentials in the body, as GitLab's token endpoint documents (Auth.js: HTTP Basic, also accepted).
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: idText(profile.sub ?? profile.id),
        name: profile.name ?? profile.username,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    verifiedEmail: (profile) =>
      confirmed(profile.confirmed_at) && profile.email ? profile.email : null,
    style: { brandColor: "#fc6d26" },
    options: endpointUrlsAsObjects(rest),
  }
}
