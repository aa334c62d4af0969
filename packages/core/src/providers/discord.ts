/**
 * Sign in with Discord (OAuth 2.0).
 *
 * Register `https://<your app>/auth/callback/discord` as a redirect of your
 * Discord application. `clientId`/`clientSecret` default to
 * `AUTH_DISCORD_ID`/`AUTH_DISCORD_SECRET`.
 *
 * @example
 * ```ts
 * import Discord from "@tessera/core/providers/discord"
 * Discord({ clientId: process.env.DISCORD_ID, clientSecret: process.env.DISCORD_SECRET })
 * ```
 *
 * Discord sends an avatar hash, not a URL: the image is built from it (an
 * animated `a_` hash is a GIF), or is Discord's default avatar for the user.
 * The name is the display name (`global_name`), else the user name.
 * Verified e-mail: `email` when `verified` is true (Discord's "whether the
 * email on this account has been verified").
 * @see https://discord.com/developers/docs/resources/user#user-object
 * @see https://discord.com/developers/docs/topics/oauth2
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /users/@me`. */
export interface DiscordProfile {
  /** A snowflake, as a string. */
  id: string
  username: string
  /** `"0"` for users on the unique-username system. */
  discriminator: string
  global_name: string | null
  avatar: string | null
  bot?: boolean
  system?: boolean
  mfa_enabled: boolean
  banner: string | null
  accent_color: number | null
  locale: string
  verified: boolean
  email: string | null
  flags: number
  premium_type: number
  public_flags: number
  avatar_decoration_data?: { asset: string; sku_id: string } | null
  /** Set by Tessera: the avatar (or default avatar) URL. */
  image_url: string
  [claim: string]: ProviderClaim
}

const CDN = "https://cdn.discordapp.com"

function avatarUrl(profile: DiscordProfile): string {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png"
    return `${CDN}/avatars/${profile.id}/${profile.avatar}.${format}`
  }
  // Default avatars: by id for unique usernames, by discriminator for legacy ones.
  const index =
    profile.discriminator === "0" || !profile.discriminator
      ? Number((BigInt(profile.id) >> 22n) % 6n)
      : Number(profile.discriminator) % 5
  return `${CDN}/embed/avatars/${index}.png`
}

/**
 * Sign in with Discord (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_DISCORD_ID`, `AUTH_DISCORD_SECRET`),
 *   and any
 *   option of the generic OAuth provider to override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Discord](https://authjs.dev/reference/core/providers/discord)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 * @see [RFC 7636, PKCE](https://www.rfc-editor.org/rfc/rfc7636.html)
 */
export default function Discord<P extends DiscordProfile = DiscordProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorization: {
      // Discord's documented URL; Auth.js's `discord.com/api/oauth2/authorize` redirects here.
      url: "https://discord.com/oauth2/authorize",
      params: { scope: "identify email" },
    },
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    // Credentials in the body, as Discord's token endpoint documents (Auth.js: HTTP Basic, also accepted).
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      profile.image_url = avatarUrl(profile)
      return {
        id: profile.id,
        name: profile.global_name ?? profile.username,
        email: profile.email ?? null,
        image: profile.image_url,
      }
    },
    verifiedEmail: (profile) => (profile.verified === true && profile.email ? profile.email : null),
    style: { brandColor: "#5865f2" },
    options: endpointUrlsAsObjects(options),
  }
}
