/**
 * Sign in with Bungie.net (OAuth 2.0), the accounts of Destiny players.
 *
 * Create an application at https://www.bungie.net/en/Application with OAuth
 * client type "Confidential" and `https://<your app>/auth/callback/bungie` as
 * its redirect URL (Bungie requires https, also in development). It gives a
 * client id, a client secret and an API key: `clientId`, `clientSecret` and
 * `apiKey` default to `AUTH_BUNGIE_ID`, `AUTH_BUNGIE_SECRET` and `AUTH_BUNGIE_KEY`.
 *
 * @example
 * ```ts
 * import Bungie from "@tessera/core/providers/bungie"
 * Bungie({
 *   clientId: process.env.BUNGIE_ID,
 *   clientSecret: process.env.BUNGIE_SECRET,
 *   apiKey: process.env.BUNGIE_API_KEY,
 * })
 * ```
 *
 * Bungie's own ways, handled here:
 * - The scope is the one registered with the application: none is sent. The
 *   check is `state` (Bungie documents no PKCE); `reauth=true` makes Bungie ask
 *   which account to use every time.
 * - Every API call needs the application's API key in `X-API-Key`, besides the
 *   access token. `headers: { "X-API-Key": ... }`, as in Auth.js's guide, works too.
 * - The user is `GET /Platform/User/GetMembershipsForCurrentUser/`, whose
 *   answer wraps it in `Response.bungieNetUser`; Bungie reports failures with
 *   HTTP 200 and an `ErrorCode` other than 1, which end the sign-in.
 * - The avatar is a path on www.bungie.net.
 *
 * Verified e-mail: none. Bungie.net shares no e-mail address.
 * @see https://github.com/Bungie-net/api/wiki/OAuth-Documentation
 * @see https://bungie-net.github.io/#User.GetMembershipDataForCurrentUser
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  requestUserinfo,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
  type UserinfoRequestContext,
} from "./oauth.js"
import type { Profile } from "../types.js"

/** A Bungie.net account (`GeneralUser`). */
export interface BungieNetUser {
  membershipId: string
  uniqueName: string
  displayName: string
  cachedBungieGlobalDisplayName?: string
  cachedBungieGlobalDisplayNameCode?: number
  /** A path on www.bungie.net, e.g. `/img/profile/avatars/default_avatar.gif`. */
  profilePicturePath?: string
  profileThemeName?: string
  about?: string
  firstAccess?: string
  lastUpdate?: string
  locale?: string
  [field: string]: ProviderClaim
}

/** `GET /Platform/User/GetMembershipsForCurrentUser/`: the user and their game memberships. */
export interface BungieProfile {
  Response: {
    bungieNetUser: BungieNetUser
    destinyMemberships: Array<Record<string, ProviderClaim>>
    primaryMembershipId?: string
  }
  /** 1 is success. */
  ErrorCode: number
  ErrorStatus: string
  Message: string
  ThrottleSeconds: number
  MessageData: Record<string, string>
  [claim: string]: ProviderClaim
}

export interface BungieOptions<P> extends OAuthUserConfig<P> {
  /** The application's API key, sent as `X-API-Key`. Default `AUTH_BUNGIE_KEY`. */
  apiKey?: string
  /** Accepted as in Auth.js's Bungie guide: `{ "X-API-Key": ... }` stands for `apiKey`. */
  headers?: Record<string, string>
}

const BUNGIE = "https://www.bungie.net"

async function requestMemberships(context: UserinfoRequestContext): Promise<Profile> {
  const provider = context.provider as typeof context.provider & BungieOptions<unknown>
  const headers = Object.fromEntries(
    Object.entries(provider.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  )
  const apiKey = provider.apiKey ?? headers["x-api-key"]
  if (!apiKey) throw new Error("Bungie: no API key (set apiKey or AUTH_BUNGIE_KEY)")
  const body = await requestUserinfo(context, { headers: { "x-api-key": apiKey } })
  // Bungie answers its errors with HTTP 200: the outcome is `ErrorCode` (1 is success).
  if (body.ErrorCode !== 1)
    throw new Error(`Bungie: the user request failed (${String(body.ErrorStatus).slice(0, 60)})`)
  return body
}

/**
 * Sign in with Bungie.net (OAuth 2).
 *
 * @param options `clientId`, `clientSecret` and `apiKey` (default: `AUTH_BUNGIE_ID`,
 *   `AUTH_BUNGIE_SECRET`, `AUTH_BUNGIE_KEY`), and any option of the generic OAuth provider to
 *   override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Bungie](https://authjs.dev/reference/core/providers/bungie)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Bungie<P extends BungieProfile = BungieProfile>(
  options: BungieOptions<P> = {},
): OAuthConfig<P> {
  return {
    id: "bungie",
    name: "Bungie",
    type: "oauth",
    authorization: `${BUNGIE}/en/OAuth/Authorize?reauth=true`,
    token: `${BUNGIE}/platform/app/oauth/token/`,
    userinfo: {
      url: `${BUNGIE}/Platform/User/GetMembershipsForCurrentUser/`,
      request: requestMemberships,
    },
    checks: ["state"],
    profile(profile) {
      const user = profile.Response.bungieNetUser
      const path = user.profilePicturePath
      return {
        id: user.membershipId,
        name: user.displayName ?? user.uniqueName ?? null,
        email: null,
        image: path ? `${BUNGIE}${path.startsWith("/") ? "" : "/"}${path}` : null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#0098d8" },
    options: endpointUrlsAsObjects(options),
  }
}
