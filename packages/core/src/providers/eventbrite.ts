/**
 * Sign in with Eventbrite (OAuth 2.0).
 *
 * Create an API key at https://www.eventbrite.com/platform/api-keys with
 * `https://<your app>/auth/callback/eventbrite` as its OAuth redirect URI.
 * `clientId`/`clientSecret` (the API key and client secret) default to
 * `AUTH_EVENTBRITE_ID`/`AUTH_EVENTBRITE_SECRET`.
 *
 * @example
 * ```ts
 * import Eventbrite from "@tessera/core/providers/eventbrite"
 * Eventbrite({ clientId: process.env.EVENTBRITE_ID, clientSecret: process.env.EVENTBRITE_SECRET })
 * ```
 *
 * Eventbrite's own ways, handled here:
 * - Client credentials go in the token request's body (`client_secret_post`).
 * - `GET /v3/users/me/` lists the user's addresses in `emails`, each with
 *   `primary` and `verified`: the user's e-mail is the primary one.
 * - The photo is an `image_id`, turned into Eventbrite's image CDN URL.
 *
 * Verified e-mail: the primary address of `emails` when its `verified` is true.
 * @see https://www.eventbrite.com/platform/docs/authentication
 * @see https://www.eventbrite.com/platform/api#/reference/user/retrieve-your-user/retrieve-your-user
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** One of the user's addresses. */
export interface EventbriteEmail {
  email: string
  verified: boolean
  primary: boolean
}

/** The user from `GET /v3/users/me/`. */
export interface EventbriteProfile {
  id: string
  name: string
  first_name: string
  last_name: string
  is_public: boolean
  emails: EventbriteEmail[]
  image_id: string | null
  [claim: string]: ProviderClaim
}

function primaryEmail(profile: EventbriteProfile): EventbriteEmail | undefined {
  return Array.isArray(profile.emails) ? profile.emails.find((e) => e?.primary === true) : undefined
}

/**
 * Sign in with Eventbrite (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_EVENTBRITE_ID`,
 *   `AUTH_EVENTBRITE_SECRET`), and any option of the generic OAuth provider to override
 *   (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Eventbrite](https://authjs.dev/reference/core/providers/eventbrite)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Eventbrite<P extends EventbriteProfile = EventbriteProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "eventbrite",
    name: "Eventbrite",
    type: "oauth",
    authorization: {
      url: "https://www.eventbrite.com/oauth/authorize",
      params: { scope: "user.profile" },
    },
    token: "https://www.eventbrite.com/oauth/token",
    userinfo: "https://www.eventbriteapi.com/v3/users/me/",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.name ?? null,
        email: primaryEmail(profile)?.email ?? null,
        image: profile.image_id
          ? `https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F${encodeURIComponent(profile.image_id)}%2F1%2Foriginal.jpg`
          : null,
      }
    },
    verifiedEmail(profile) {
      const primary = primaryEmail(profile)
      return primary?.verified === true && typeof primary.email === "string" ? primary.email : null
    },
    style: { brandColor: "#f05537" },
    options: endpointUrlsAsObjects(options),
  }
}
