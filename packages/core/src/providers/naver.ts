/**
 * Sign in with Naver (네이버 로그인, OAuth 2.0).
 *
 * Register an application at developers.naver.com with the Naver Login API,
 * the PC web environment and `https://<your app>/auth/callback/naver` as its
 * callback URL. `clientId`/`clientSecret` default to
 * `AUTH_NAVER_ID`/`AUTH_NAVER_SECRET`.
 *
 * @example
 * ```ts
 * import Naver from "@tessera/core/providers/naver"
 * Naver({ clientId: process.env.AUTH_NAVER_ID, clientSecret: process.env.AUTH_NAVER_SECRET })
 * ```
 *
 * Naver's own ways, handled here:
 * - `state` is required, in the authorization request and again in the token
 *   request, with the client id and secret as parameters; Naver has no PKCE.
 * - Token errors come with status 200 and `{ error, error_description }`, and
 *   are reported as errors; `expires_in` comes as a string, and is read as a number.
 * - The profile is `GET openapi.naver.com/v1/nid/me`, wrapped as
 *   `{ resultcode, message, response: { id, nickname, email, profile_image } }`.
 *
 * Verified e-mail: none. The `email` of the profile comes with no flag saying
 * Naver verified it.
 * @see https://developers.naver.com/docs/login/api/api.md
 * @see https://developers.naver.com/docs/login/profile/profile.md
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  requestTokens,
  type OAuthConfig,
  type OAuthUserConfig,
  type TokenRequestContext,
  type ProviderClaim,
} from "./oauth.js"

/** `GET /v1/nid/me`: the user in `response`. */
export interface NaverProfile {
  resultcode: string
  message: string
  response: {
    id: string
    nickname?: string
    name?: string
    email?: string
    gender?: "F" | "M" | "U"
    age?: string
    birthday?: string
    profile_image?: string
    birthyear?: string
    mobile?: string
  }
  [claim: string]: ProviderClaim
}

async function requestToken(context: TokenRequestContext) {
  const { clientId, clientSecret } = context.provider
  const tokens = await requestTokens(context, {
    body: {
      client_id: clientId ?? "",
      client_secret: clientSecret ?? "",
      state: context.checks.state ?? "",
    },
  })
  // Naver sends `expires_in` as a string ("3600").
  if (typeof tokens.expires_in === "string") tokens.expires_in = Number(tokens.expires_in)
  return tokens
}

/**
 * Sign in with Naver (네이버 로그인, OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_NAVER_ID`, `AUTH_NAVER_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Naver](https://authjs.dev/reference/core/providers/naver)
 * @see https://developers.naver.com/docs/login/api/api.md
 * @see https://developers.naver.com/docs/login/profile/profile.md
 */
export default function Naver<P extends NaverProfile = NaverProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "naver",
    name: "Naver",
    type: "oauth",
    authorization: "https://nid.naver.com/oauth2.0/authorize",
    token: { url: "https://nid.naver.com/oauth2.0/token", request: requestToken },
    userinfo: "https://openapi.naver.com/v1/nid/me",
    checks: ["state"],
    profile({ response }) {
      return {
        id: response.id,
        name: response.nickname ?? response.name ?? null,
        email: response.email ?? null,
        image: response.profile_image ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#03c75a" },
    options: endpointUrlsAsObjects(options),
  }
}
