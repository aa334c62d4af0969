/**
 * Sign in with EVE Online (EVE SSO, OAuth 2.0): the user is an EVE character.
 *
 * Create an application at developers.eveonline.com with the connection type
 * "Authentication Only" and `https://<your app>/auth/callback/eveonline` as its
 * callback URL. `clientId`/`clientSecret` default to
 * `AUTH_EVEONLINE_ID`/`AUTH_EVEONLINE_SECRET`.
 *
 * @example
 * ```ts
 * import EVEOnline from "@tessera/core/providers/eveonline"
 * EVEOnline({
 *   clientId: process.env.AUTH_EVEONLINE_ID,
 *   clientSecret: process.env.AUTH_EVEONLINE_SECRET,
 * })
 * ```
 *
 * EVE SSO's ways, handled here:
 * - The scope is `publicData`; the check is `state`, which EVE SSO requires
 *   of web applications. The client authenticates with HTTP Basic.
 * - The character is read from `GET /oauth/verify`, which answers with
 *   `CharacterID` and `CharacterName` (capitalised, not the usual `id`). The
 *   account is the `CharacterID`; the image is the character's portrait on
 *   EVE's image server, `images.evetech.net` (Auth.js links the retired
 *   `image.eveonline.com`).
 * - A character can be sold to another player: it keeps its `CharacterID`,
 *   but its `CharacterOwnerHash` changes. To keep a sold character from
 *   signing its buyer in to the seller's account, store the hash (the raw
 *   profile reaches the `signIn` and `jwt` callbacks) and refuse a sign-in
 *   whose hash differs.
 *
 * Verified e-mail: none; EVE SSO shares no e-mail address.
 * @see https://developers.eveonline.com/docs/services/sso/
 * @see https://developers.eveonline.com/docs/services/iec/
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The character from `GET https://login.eveonline.com/oauth/verify`. */
export interface EVEOnlineProfile {
  CharacterID: number
  CharacterName: string
  /** When the access token expires (a date without a time zone, UTC). */
  ExpiresOn: string
  /** The granted scopes, space-separated. */
  Scopes: string
  TokenType: string
  /** Changes when the character moves to another player's account. */
  CharacterOwnerHash: string
  IntellectualProperty: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with EVE Online (EVE SSO, OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_EVEONLINE_ID`, `AUTH_EVEONLINE_SECRET`), and any OAuth option to override.
 * @see [Auth.js: EVE Online](https://authjs.dev/reference/core/providers/eveonline)
 * @see https://developers.eveonline.com/docs/services/sso/
 */
export default function EVEOnline<P extends EVEOnlineProfile = EVEOnlineProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "eveonline",
    name: "EVE Online",
    type: "oauth",
    authorization: {
      url: "https://login.eveonline.com/v2/oauth/authorize",
      params: { scope: "publicData" },
    },
    token: "https://login.eveonline.com/v2/oauth/token",
    userinfo: "https://login.eveonline.com/oauth/verify",
    checks: ["state"],
    profile(profile) {
      const id = idText(profile.CharacterID)
      return {
        id,
        name: profile.CharacterName ?? null,
        email: null,
        image: `https://images.evetech.net/characters/${encodeURIComponent(id)}/portrait?size=128`,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
