/**
 * Sign in with Spotify (OAuth 2.0).
 *
 * Add `https://<your app>/auth/callback/spotify` as a redirect URI of your app
 * in the Spotify developer dashboard. `clientId`/`clientSecret` default to
 * `AUTH_SPOTIFY_ID`/`AUTH_SPOTIFY_SECRET`.
 *
 * @example
 * ```ts
 * import Spotify from "@tessera/core/providers/spotify"
 * Spotify({ clientId: process.env.AUTH_SPOTIFY_ID, clientSecret: process.env.AUTH_SPOTIFY_SECRET })
 * ```
 *
 * The scope is `user-read-email`; the profile is `GET /v1/me`, the image the
 * first of `images`. The client authenticates with HTTP Basic.
 *
 * Verified e-mail: none. Spotify documents the `email` of `/v1/me` as
 * "unverified; there is no proof that it actually belongs to the user".
 * @see https://developer.spotify.com/documentation/web-api/tutorials/code-flow
 * @see https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

export interface SpotifyImage {
  url: string
  height: number | null
  width: number | null
}

/** The user from `GET /v1/me`. */
export interface SpotifyProfile {
  id: string
  display_name: string | null
  /** Not verified by Spotify. */
  email: string
  images: SpotifyImage[]
  country?: string
  product?: string
  uri: string
  href: string
  type: "user"
  external_urls: { spotify: string }
  followers?: { href: string | null; total: number }
  explicit_content?: { filter_enabled: boolean; filter_locked: boolean }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Spotify (OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_SPOTIFY_ID`, `AUTH_SPOTIFY_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Spotify](https://authjs.dev/reference/core/providers/spotify)
 * @see https://developer.spotify.com/documentation/web-api/tutorials/code-flow
 * @see https://developer.spotify.com/documentation/web-api/reference/get-current-users-profile
 */
export default function Spotify<P extends SpotifyProfile = SpotifyProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "spotify",
    name: "Spotify",
    type: "oauth",
    authorization: {
      url: "https://accounts.spotify.com/authorize",
      params: { scope: "user-read-email" },
    },
    token: "https://accounts.spotify.com/api/token",
    userinfo: "https://api.spotify.com/v1/me",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.display_name ?? null,
        email: profile.email ?? null,
        image: profile.images?.[0]?.url ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#1db954" },
    options: endpointUrlsAsObjects(options),
  }
}
