/**
 * Sign in with GitHub (OAuth 2.0; GitHub Enterprise Server too).
 *
 * Register `https://<your app>/auth/callback/github` as the callback URL of
 * your GitHub OAuth app. `clientId`/`clientSecret` default to
 * `AUTH_GITHUB_ID`/`AUTH_GITHUB_SECRET`.
 *
 * @example
 * ```ts
 * import GitHub from "@tessera/core/providers/github"
 * GitHub({ clientId: process.env.GITHUB_ID, clientSecret: process.env.GITHUB_SECRET })
 * // GitHub Enterprise Server:
 * GitHub({ enterprise: { baseUrl: "https://github.example.com" } })
 * ```
 *
 * GitHub's own shapes, handled here:
 * - `/user` has `email: null` when the user keeps their address private; the
 *   primary, verified address is then read from `/user/emails` (the
 *   `user:email` scope, asked for by default). An unverified address is never used.
 * - The token endpoint reports errors with status 200 and `{ error }`; they are
 *   turned into the 400 error response OAuth 2.0 specifies.
 * Verified e-mail: the profile's `email`. GitHub lets a user make public only
 * an address they verified, and when none is public the address is taken from
 * `/user/emails` only if it is primary and verified: every address this
 * provider reports is one GitHub verified.
 * @see https://docs.github.com/en/rest/users/users#get-the-authenticated-user
 * @see https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user
 * @see https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import type {
  OAuthConfig,
  OAuthUserConfig,
  UserinfoRequestContext,
  ProviderClaim,
} from "./oauth.js"

/** The authenticated user, from `GET /user`. */
export interface GitHubProfile {
  login: string
  id: number
  node_id: string
  avatar_url: string
  gravatar_id: string | null
  url: string
  html_url: string
  followers_url: string
  following_url: string
  gists_url: string
  starred_url: string
  subscriptions_url: string
  organizations_url: string
  repos_url: string
  events_url: string
  received_events_url: string
  type: string
  site_admin: boolean
  name: string | null
  company: string | null
  blog: string | null
  location: string | null
  email: string | null
  hireable: boolean | null
  bio: string | null
  twitter_username?: string | null
  public_repos: number
  public_gists: number
  followers: number
  following: number
  created_at: string
  updated_at: string
  private_gists?: number
  total_private_repos?: number
  owned_private_repos?: number
  disk_usage?: number
  suspended_at?: string | null
  collaborators?: number
  two_factor_authentication: boolean
  plan?: { collaborators: number; name: string; space: number; private_repos: number }
  [claim: string]: ProviderClaim
}

/** One address from `GET /user/emails`. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

export interface GitHubOptions<P> extends OAuthUserConfig<P> {
  /** GitHub Enterprise Server: the base URL, e.g. `https://github.example.com`. */
  enterprise?: { baseUrl?: string }
}

const HEADERS = {
  accept: "application/vnd.github+json",
  "user-agent": "tessera",
  "x-github-api-version": "2022-11-28",
}

async function requestProfile({
  tokens,
  provider,
  fetch,
}: UserinfoRequestContext): Promise<Profile> {
  const url = provider.userinfo?.url
  if (!url) throw new Error("GitHub: no userinfo URL")
  const headers = { ...HEADERS, authorization: `Bearer ${tokens.access_token}` }
  const response = await fetch(url, { headers })
  if (!response.ok) throw new Error(`GitHub: ${new URL(url).pathname} answered ${response.status}`)
  const profile = (await response.json()) as GitHubProfile
  if (!profile.email) {
    // Without the user:email scope this answers 404/403: the user then has no e-mail.
    const emails = await fetch(`${url.replace(/\/+$/, "")}/emails`, { headers })
    if (emails.ok) {
      const list = (await emails.json()) as GitHubEmail[]
      // Exactly `true`, as GitHub sends them: a string or number is no proof of anything.
      const primary = Array.isArray(list)
        ? list.find((e) => e?.primary === true && e.verified === true)
        : undefined
      profile.email = typeof primary?.email === "string" ? primary.email : null
    }
  }
  return profile as unknown as Profile
}

/** GitHub answers 200 with `{ error }` when the code exchange fails. */
async function conformTokenError(response: Response): Promise<Response | undefined> {
  if (response.status !== 200) return undefined
  const body: unknown = await response.json().catch(() => undefined)
  if (!body || typeof body !== "object" || !("error" in body)) return undefined
  return new Response(JSON.stringify(body), {
    status: 400,
    headers: { "content-type": "application/json" },
  })
}

/**
 * Sign in with GitHub (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_GITHUB_ID`, `AUTH_GITHUB_SECRET`),
 *   `enterprise.baseUrl`
 *   for GitHub Enterprise Server, and any OAuth option to override.
 * @see [Auth.js: GitHub](https://authjs.dev/reference/core/providers/github)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 * @see [GitHub: authorizing OAuth apps](https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps)
 */
export default function GitHub<P extends GitHubProfile = GitHubProfile>(
  options: GitHubOptions<P> = {},
): OAuthConfig<P> {
  const { enterprise, ...rest } = options
  const baseUrl = (enterprise?.baseUrl ?? "https://github.com").replace(/\/+$/, "")
  const apiBaseUrl = enterprise?.baseUrl ? `${baseUrl}/api/v3` : "https://api.github.com"
  return {
    id: "github",
    name: "GitHub",
    type: "oauth",
    authorization: {
      url: `${baseUrl}/login/oauth/authorize`,
      params: { scope: "read:user user:email" },
    },
    token: { url: `${baseUrl}/login/oauth/access_token`, conform: conformTokenError },
    userinfo: { url: `${apiBaseUrl}/user`, request: requestProfile },
    // Credentials in the body, as GitHub's token endpoint documents (Auth.js: HTTP Basic, also accepted).
    // No `issuer` (Auth.js: https://github.com/login/oauth): GitHub sends no `iss` to check.
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: idText(profile.id),
        name: profile.name ?? profile.login,
        email: profile.email,
        image: profile.avatar_url,
      }
    },
    verifiedEmail: (profile) => profile.email ?? null,
    style: { brandColor: "#24292f" },
    options: endpointUrlsAsObjects(rest),
  }
}
