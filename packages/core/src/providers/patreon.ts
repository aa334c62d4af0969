/**
 * Sign in with Patreon (OAuth 2.0).
 *
 * Register a client at patreon.com/portal/registration/register-clients with
 * `https://<your app>/auth/callback/patreon` as a redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_PATREON_ID`/`AUTH_PATREON_SECRET`.
 *
 * @example
 * ```ts
 * import Patreon from "@tessera/core/providers/patreon"
 * Patreon({ clientId: process.env.AUTH_PATREON_ID, clientSecret: process.env.AUTH_PATREON_SECRET })
 * ```
 *
 * The scopes are `identity identity[email]`; the client id and secret go in the
 * token request's body. The profile is the current user in JSON:API form,
 * `{ data: { id, attributes: { full_name, email, image_url, is_email_verified } } }`.
 *
 * Verified e-mail: `attributes.email` when `attributes.is_email_verified` is true.
 * @see https://docs.patreon.com/#oauth
 * @see https://docs.patreon.com/#get-api-oauth2-api-current_user
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The current user, as a JSON:API document. */
export interface PatreonProfile {
  data: {
    id: string
    type: "user"
    attributes: {
      full_name: string
      first_name?: string
      last_name?: string
      vanity?: string | null
      email?: string
      is_email_verified?: boolean
      image_url?: string
      thumb_url?: string
      url?: string
      created?: string
      [attribute: string]: unknown
    }
    relationships?: Record<string, unknown>
  }
  links?: { self: string }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Patreon (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_PATREON_ID`, `AUTH_PATREON_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Patreon](https://authjs.dev/reference/core/providers/patreon)
 * @see https://docs.patreon.com/#oauth
 * @see https://docs.patreon.com/#get-api-oauth2-api-current_user
 */
export default function Patreon<P extends PatreonProfile = PatreonProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "patreon",
    name: "Patreon",
    type: "oauth",
    authorization: {
      url: "https://www.patreon.com/oauth2/authorize",
      params: { scope: "identity identity[email]" },
    },
    token: "https://www.patreon.com/api/oauth2/token",
    userinfo: "https://www.patreon.com/api/oauth2/api/current_user",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile({ data }) {
      return {
        id: data.id,
        name: data.attributes.full_name ?? null,
        email: data.attributes.email ?? null,
        image: data.attributes.image_url ?? null,
      }
    },
    verifiedEmail: ({ data }) =>
      data.attributes.is_email_verified === true && data.attributes.email
        ? data.attributes.email
        : null,
    style: { brandColor: "#e85b46" },
    options: endpointUrlsAsObjects(options),
  }
}
