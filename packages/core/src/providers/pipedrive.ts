/**
 * Sign in with Pipedrive (OAuth 2.0).
 *
 * In Pipedrive's Developer Hub, create an app with
 * `https://<your app>/auth/callback/pipedrive` as its callback URL; its scopes are
 * chosen there (base scope is enough to read the user). `clientId`/`clientSecret`
 * default to `AUTH_PIPEDRIVE_ID`/`AUTH_PIPEDRIVE_SECRET`.
 *
 * @example
 * ```ts
 * import Pipedrive from "@tessera/core/providers/pipedrive"
 * Pipedrive({ clientId: process.env.PIPEDRIVE_ID, clientSecret: process.env.PIPEDRIVE_SECRET })
 * ```
 *
 * Pipedrive's own ways, handled here:
 * - `GET /v1/users/me` answers `{ success, data }`: the raw profile is that whole
 *   answer (as Auth.js types it), the user is read from `data`;
 * - client credentials as HTTP Basic (`client_secret_basic`), as Pipedrive documents;
 * - Pipedrive documents no PKCE: `state` is checked as well.
 *
 * Verified e-mail: none: no flag (`activated` is the user's account, not the address).
 * @see https://pipedrive.readme.io/docs/marketplace-oauth-authorization
 * @see https://developers.pipedrive.com/docs/api/v1/Users#getCurrentUser
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The answer of `GET /v1/users/me`: the user in `data`. */
export interface PipedriveProfile {
  success: boolean
  data: {
    id: number
    name: string
    email: string
    default_currency?: string
    locale?: string
    lang?: number
    phone?: string | null
    activated?: boolean
    last_login?: string
    created?: string
    modified?: string
    has_created_company?: boolean
    is_admin?: number
    active_flag?: boolean
    timezone_name?: string
    timezone_offset?: string
    role_id?: number
    icon_url?: string | null
    is_you?: boolean
    company_id?: number
    company_name?: string
    company_domain?: string
    company_country?: string
    company_industry?: string
    language?: { language_code?: string; country_code?: string }
    [field: string]: ProviderClaim
  }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Pipedrive (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_PIPEDRIVE_ID`,
 *   `AUTH_PIPEDRIVE_SECRET`), and any option of the generic OAuth provider to override.
 * @see [Auth.js: Pipedrive](https://authjs.dev/reference/core/providers/pipedrive)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Pipedrive<P extends PipedriveProfile = PipedriveProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "pipedrive",
    name: "Pipedrive",
    type: "oauth",
    authorization: { url: "https://oauth.pipedrive.com/oauth/authorize" },
    token: "https://oauth.pipedrive.com/oauth/token",
    userinfo: "https://api.pipedrive.com/v1/users/me",
    checks: ["pkce", "state"],
    profile({ data }) {
      return {
        id: idText(data.id),
        name: data.name ?? null,
        email: data.email ?? null,
        image: data.icon_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#017737" },
    options: endpointUrlsAsObjects(options),
  }
}
