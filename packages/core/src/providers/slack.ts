/**
 * Sign in with Slack (OpenID Connect, "Sign in with Slack").
 *
 * Add `https://<your app>/auth/callback/slack` as a redirect URL of your Slack
 * app (with the `openid`, `profile` and `email` user scopes).
 * `clientId`/`clientSecret` default to `AUTH_SLACK_ID`/`AUTH_SLACK_SECRET`.
 *
 * @example
 * ```ts
 * import Slack from "@tessera/core/providers/slack"
 * Slack({ clientId: process.env.SLACK_ID, clientSecret: process.env.SLACK_SECRET })
 * ```
 *
 * Slack's Web API answers errors with status 200 and `{ ok: false, error }`;
 * the token endpoint's are turned into the 400 error response OAuth 2.0
 * specifies, so the error is reported as the provider's.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://api.slack.com/authentication/sign-in-with-slack#response
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of Slack's ID Token. */
export interface SlackProfile {
  iss: "https://slack.com"
  sub: string
  aud: string
  exp: number
  iat: number
  auth_time: number
  nonce?: string
  at_hash?: string
  "https://slack.com/user_id": string
  "https://slack.com/team_id": string
  email: string
  email_verified: boolean
  date_email_verified?: number
  name: string
  picture: string
  given_name: string
  family_name: string
  locale: string
  "https://slack.com/team_name"?: string
  "https://slack.com/team_domain"?: string
  "https://slack.com/user_image_24"?: string
  "https://slack.com/user_image_32"?: string
  "https://slack.com/user_image_48"?: string
  "https://slack.com/user_image_72"?: string
  "https://slack.com/user_image_192"?: string
  "https://slack.com/user_image_512"?: string
  "https://slack.com/team_image_34"?: string
  "https://slack.com/team_image_default"?: boolean
  [claim: string]: ProviderClaim
}

/** `{ ok: false, error }` with 200 -> `{ error }` with 400. */
async function conformError(response: Response): Promise<Response | undefined> {
  if (response.status !== 200) return undefined
  const body: unknown = await response.json().catch(() => undefined)
  if (!body || typeof body !== "object" || (body as { ok?: unknown }).ok !== false) return undefined
  const error = String((body as { error?: unknown }).error ?? "invalid_request")
  return new Response(JSON.stringify({ error }), {
    status: 400,
    headers: { "content-type": "application/json" },
  })
}

/**
 * Sign in with Slack (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_SLACK_ID`, `AUTH_SLACK_SECRET`), and
 *   any
 *   option of the generic OAuth provider to override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Slack](https://authjs.dev/reference/core/providers/slack)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function Slack<P extends SlackProfile = SlackProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "slack",
    name: "Slack",
    type: "oidc",
    issuer: "https://slack.com",
    token: { conform: conformError },
    // Credentials in the body, as Slack's openid.connect.token documents (Auth.js: HTTP Basic, also accepted).
    client: { token_endpoint_auth_method: "client_secret_post" },
    // Slack has no PKCE: Auth.js checks only `nonce`; `state` also binds the callback to the browser.
    checks: ["state", "nonce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? profile["https://slack.com/user_image_512"] ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#4a154b" },
    options: endpointUrlsAsObjects(options),
  }
}
