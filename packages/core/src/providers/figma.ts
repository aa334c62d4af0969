/**
 * Sign in with Figma (OAuth 2.0).
 *
 * Create an OAuth app in Figma's developer settings with
 * `https://<your app>/auth/callback/figma` as its callback URL.
 * `clientId`/`clientSecret` default to `AUTH_FIGMA_ID`/`AUTH_FIGMA_SECRET`.
 *
 * @example
 * ```ts
 * import Figma from "@tessera/core/providers/figma"
 * Figma({ clientId: process.env.AUTH_FIGMA_ID, clientSecret: process.env.AUTH_FIGMA_SECRET })
 * // Figma's newer, narrower scope for reading the user:
 * Figma({ authorization: { params: { scope: "current_user:read" } } })
 * ```
 *
 * Figma's ways, handled here:
 * - The scope is `files:read`; the check is `state`; the client authenticates
 *   with HTTP Basic.
 * - The token response has no `token_type` (OAuth 2.0 requires one); its token
 *   is a bearer token, and is read as one.
 * - The user is `GET /v1/me`: the name is the `handle`, the image `img_url`.
 *
 * Verified e-mail: none. The `email` comes with no flag saying Figma verified it.
 * @see https://www.figma.com/developers/api#oauth2
 * @see https://www.figma.com/developers/api#users-types
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  withBearerTokenType,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The user from `GET https://api.figma.com/v1/me`. */
export interface FigmaProfile {
  id: string
  email: string
  handle: string
  img_url: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Figma (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_FIGMA_ID`, `AUTH_FIGMA_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Figma](https://authjs.dev/reference/core/providers/figma)
 * @see https://www.figma.com/developers/api#oauth2
 */
export default function Figma<P extends FigmaProfile = FigmaProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "figma",
    name: "Figma",
    type: "oauth",
    authorization: { url: "https://www.figma.com/oauth", params: { scope: "files:read" } },
    token: { url: "https://api.figma.com/v1/oauth/token", conform: withBearerTokenType },
    userinfo: "https://api.figma.com/v1/me",
    checks: ["state"],
    profile(profile) {
      return {
        id: profile.id,
        name: profile.handle ?? null,
        email: profile.email ?? null,
        image: profile.img_url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#ff7237" },
    options: endpointUrlsAsObjects(options),
  }
}
