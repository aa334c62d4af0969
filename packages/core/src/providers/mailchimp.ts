/**
 * Sign in with Mailchimp (OAuth 2.0).
 *
 * Register an app at admin.mailchimp.com/account/oauth2/client/ with
 * `https://<your app>/auth/callback/mailchimp` as its redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_MAILCHIMP_ID`/`AUTH_MAILCHIMP_SECRET`.
 *
 * @example
 * ```ts
 * import Mailchimp from "@tessera/core/providers/mailchimp"
 * Mailchimp({
 *   clientId: process.env.AUTH_MAILCHIMP_ID,
 *   clientSecret: process.env.AUTH_MAILCHIMP_SECRET,
 * })
 * ```
 *
 * Mailchimp's ways, handled here:
 * - The client id and secret go in the token request's body
 *   (`client_secret_post`); `state` is sent and checked besides PKCE, which
 *   Mailchimp does not document.
 * - The token response is `{ access_token, expires_in: 0, scope: null }`: no
 *   `token_type` (the token is a bearer token), a `null` scope (dropped), and
 *   `expires_in: 0` for a token that does not expire (dropped, so the Account
 *   gets no `expires_at` in the past).
 * - The user is `GET /oauth2/metadata`, which takes the token as
 *   `Authorization: OAuth <token>`. The account is `login.login_id`, the name
 *   the account name, the e-mail and avatar the login's.
 *
 * Verified e-mail: none. `login.email` comes with no flag saying Mailchimp verified it.
 * @see https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import {
  requestUserinfo,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
  type UserinfoRequestContext,
} from "./oauth.js"

/** What `GET https://login.mailchimp.com/oauth2/metadata` answers. */
export interface MailchimpProfile {
  /** The data center of the account's API, e.g. `us19`. */
  dc: string
  role: string
  accountname: string
  user_id: number
  login: {
    email: string
    avatar: string | null
    login_id: number
    login_name: string
    login_email: string
  }
  login_url: string
  api_endpoint: string
  [claim: string]: ProviderClaim
}

/** Mailchimp's token response, made standard: a bearer token, no null scope, no `expires_in: 0`. */
async function conformTokens(response: Response): Promise<Response | undefined> {
  if (response.status !== 200) return undefined
  const body: unknown = await response.json().catch(() => undefined)
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined
  const { scope, expires_in, ...rest } = body as Record<string, unknown>
  const tokens: Record<string, unknown> = { token_type: "bearer", ...rest }
  if (scope !== null && scope !== undefined) tokens.scope = scope
  if (expires_in !== 0 && expires_in !== undefined) tokens.expires_in = expires_in
  return new Response(JSON.stringify(tokens), {
    status: 200,
    headers: { "content-type": "application/json" },
  })
}

/** The metadata endpoint documents the `OAuth` scheme for the token. */
function requestMetadata(context: UserinfoRequestContext): Promise<Profile> {
  return requestUserinfo(context, {
    bearer: false,
    headers: { authorization: `OAuth ${String(context.tokens.access_token ?? "")}` },
  })
}

/**
 * Sign in with Mailchimp (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_MAILCHIMP_ID`, `AUTH_MAILCHIMP_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Mailchimp](https://authjs.dev/reference/core/providers/mailchimp)
 * @see https://mailchimp.com/developer/marketing/guides/access-user-data-oauth-2/
 */
export default function Mailchimp<P extends MailchimpProfile = MailchimpProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "mailchimp",
    name: "Mailchimp",
    type: "oauth",
    authorization: "https://login.mailchimp.com/oauth2/authorize",
    token: { url: "https://login.mailchimp.com/oauth2/token", conform: conformTokens },
    userinfo: { url: "https://login.mailchimp.com/oauth2/metadata", request: requestMetadata },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: idText(profile.login.login_id),
        name: profile.accountname ?? null,
        email: profile.login.email ?? null,
        image: profile.login.avatar ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
