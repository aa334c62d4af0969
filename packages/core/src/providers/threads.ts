/**
 * Sign in with Threads (OAuth 2.0), Meta's Threads API.
 *
 * In the Meta app dashboard, add the Threads use case to your app with
 * `https://<your app>/auth/callback/threads` as a redirect callback URL.
 * `clientId`/`clientSecret` (the Threads app id and secret) default to
 * `AUTH_THREADS_ID`/`AUTH_THREADS_SECRET`.
 *
 * @example
 * ```ts
 * import Threads from "@tessera/core/providers/threads"
 * Threads({ clientId: process.env.THREADS_ID, clientSecret: process.env.THREADS_SECRET })
 * ```
 *
 * Threads' own ways, handled here:
 * - scope `threads_basic`; no PKCE, so the check is `state`;
 * - client credentials in the request body (`client_secret_post`);
 * - the token response (`access_token`, `user_id`) has no `token_type`: it is a
 *   bearer token;
 * - `GET /v1.0/me` answers the user's fields at the top level; the raw profile
 *   keeps them under `data`, the shape of Auth.js's `ThreadsProfile`, so a
 *   `profile` callback written for Auth.js reads the same fields.
 *
 * The access token is Threads' short-lived one (an hour); exchange it for a
 * long-lived one (`th_exchange_token`) yourself if you call the API later.
 *
 * Verified e-mail: none: Threads shares no address.
 * @see https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions
 * @see https://developers.facebook.com/docs/threads/threads-profiles
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import {
  requestUserinfo,
  withBearerTokenType,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
  type UserinfoRequestContext,
} from "./oauth.js"

/** The user's fields from `GET /v1.0/me`, under `data` (as Auth.js types them). */
export interface ThreadsProfile {
  data: {
    id: string
    username?: string
    name?: string
    threads_profile_picture_url?: string
    threads_biography?: string
    [field: string]: ProviderClaim
  }
  [claim: string]: ProviderClaim
}

/** `/me` answers the fields themselves; they become `{ data: fields }`. */
async function requestUser(context: UserinfoRequestContext): Promise<Profile> {
  const body = await requestUserinfo(context)
  if (typeof body.id !== "string" && typeof body.id !== "number")
    throw new Error("Threads: /me answered no user id")
  return { data: { ...body, id: String(body.id) } }
}

/**
 * Sign in with Threads (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_THREADS_ID`,
 *   `AUTH_THREADS_SECRET`), and any option of the generic OAuth provider to override.
 * @see [Auth.js: Threads](https://authjs.dev/reference/core/providers/threads)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Threads<P extends ThreadsProfile = ThreadsProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "threads",
    name: "Threads",
    type: "oauth",
    checks: ["state"],
    authorization: {
      url: "https://threads.net/oauth/authorize",
      params: { scope: "threads_basic" },
    },
    token: { url: "https://graph.threads.net/oauth/access_token", conform: withBearerTokenType },
    userinfo: {
      url: "https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url",
      request: requestUser,
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    // The short-lived token cannot be renewed with a refresh token (Threads sends none).
    tokenRefresh: false,
    profile({ data }) {
      return {
        id: data.id,
        name: data.username || null,
        email: null,
        image: data.threads_profile_picture_url || null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
