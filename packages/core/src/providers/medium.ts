/**
 * Sign in with Medium (OAuth 2.0).
 *
 * Medium no longer takes new API integrations (its API documentation is
 * archived); this is for apps that already have a client id. Its redirect URI
 * must be `https://<your app>/auth/callback/medium`. `clientId`/`clientSecret`
 * default to `AUTH_MEDIUM_ID`/`AUTH_MEDIUM_SECRET`.
 *
 * @example
 * ```ts
 * import Medium from "@tessera/core/providers/medium"
 * Medium({ clientId: process.env.AUTH_MEDIUM_ID, clientSecret: process.env.AUTH_MEDIUM_SECRET })
 * ```
 *
 * Medium's ways, handled here:
 * - The scope is `basicProfile`; the check is `state`, which Medium requires
 *   (it has no PKCE); the client id and secret go in the token request's body.
 * - The token response lists `scope` as an array, and gives `expires_at` in
 *   milliseconds since the epoch instead of `expires_in`: the scope is joined,
 *   and the expiry becomes `expires_in`, so the Account's `expires_at` is in
 *   seconds like every other provider's.
 * - The user is `GET /v1/me`, wrapped as `{ data: { id, name, imageUrl, ... } }`.
 *
 * Verified e-mail: none; Medium shares no e-mail address.
 * @see https://github.com/Medium/medium-api-docs#2-authentication
 * @see https://github.com/Medium/medium-api-docs#getting-the-authenticated-users-details
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** What `GET https://api.medium.com/v1/me` answers. */
export interface MediumProfile {
  data: {
    id: string
    username: string
    name: string
    url: string
    imageUrl: string
    [field: string]: ProviderClaim
  }
  [claim: string]: ProviderClaim
}

/** `scope: ["basicProfile"]` -> `"basicProfile"`; `expires_at` (ms) -> `expires_in` (s). */
async function conformTokens(response: Response): Promise<Response | undefined> {
  if (response.status !== 200) return undefined
  const body: unknown = await response.json().catch(() => undefined)
  if (!body || typeof body !== "object" || Array.isArray(body)) return undefined
  const { scope, expires_at, ...rest } = body as Record<string, unknown>
  const tokens: Record<string, unknown> = { ...rest }
  if (scope !== undefined) tokens.scope = Array.isArray(scope) ? scope.map(String).join(" ") : scope
  if (typeof expires_at === "number" && Number.isFinite(expires_at))
    tokens.expires_in = Math.max(0, Math.floor((expires_at - Date.now()) / 1000))
  return new Response(JSON.stringify(tokens), {
    status: 200,
    headers: { "content-type": "application/json" },
  })
}

/**
 * Sign in with Medium (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_MEDIUM_ID`, `AUTH_MEDIUM_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Medium](https://authjs.dev/reference/core/providers/medium)
 * @see https://github.com/Medium/medium-api-docs#2-authentication
 */
export default function Medium<P extends MediumProfile = MediumProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "medium",
    name: "Medium",
    type: "oauth",
    authorization: {
      url: "https://medium.com/m/oauth/authorize",
      params: { scope: "basicProfile" },
    },
    token: { url: "https://api.medium.com/v1/tokens", conform: conformTokens },
    userinfo: "https://api.medium.com/v1/me",
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile) {
      return {
        id: profile.data.id,
        name: profile.data.name ?? profile.data.username ?? null,
        email: null,
        image: profile.data.imageUrl ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
