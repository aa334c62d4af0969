/**
 * Sign in with VK (VKontakte), OAuth 2.0.
 *
 * Register `https://<your app>/auth/callback/vk` as the redirect URI of your
 * VK app. `clientId`/`clientSecret` default to `AUTH_VK_ID`/`AUTH_VK_SECRET`.
 *
 * VK API version 5.126 by default. To use another, pass endpoint URLs that
 * carry `v=<api_version>`, under VK's option names or the standard ones:
 *
 * @example
 * ```ts
 * import VK from "@tessera/core/providers/vk"
 * VK({ clientId: process.env.VK_ID, clientSecret: process.env.VK_SECRET })
 *
 * // Another API version:
 * const v = "5.199"
 * VK({
 *   accessTokenUrl: `https://oauth.vk.com/access_token?v=${v}`,
 *   requestTokenUrl: `https://oauth.vk.com/access_token?v=${v}`,
 *   authorizationUrl: `https://oauth.vk.com/authorize?response_type=code&v=${v}`,
 *   profileUrl: `https://api.vk.com/method/users.get?fields=photo_100&v=${v}`,
 * })
 * ```
 *
 * VK's own shapes, handled here:
 * - the token response has no `token_type` (it is a bearer token) and carries
 *   the user's `email` and `user_id`; the e-mail comes from there, since
 *   `users.get` does not return it (ask for the `email` scope, the default);
 * - `users.get` answers `{ response: [profile] }`, or `{ error: {...} }` with status 200;
 *   the profile must be the user the token response's `user_id` names, its id
 *   a positive integer, and the token response's `email` a string when present;
 * - VK's OAuth does not implement PKCE, so the check is `state`.
 *
 * Verified e-mail: none. VK sends the address in the token response with no
 * flag saying it was verified.
 * @see https://dev.vk.com/en/api/access-token/authcode-flow-user
 * @see https://dev.vk.com/en/method/users.get
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import {
  withBearerTokenType,
  type OAuthConfig,
  type OAuthUserConfig,
  type TokenSet,
  type UserinfoRequestContext,
} from "./oauth.js"

/** The API version used when the endpoint URLs do not say otherwise. */
export const VK_API_VERSION = "5.126"

type Flag = 0 | 1

interface Declensions {
  first_name_abl?: string
  first_name_acc?: string
  first_name_dat?: string
  first_name_gen?: string
  first_name_ins?: string
  first_name_nom?: string
  last_name_abl?: string
  last_name_acc?: string
  last_name_dat?: string
  last_name_gen?: string
  last_name_ins?: string
  last_name_nom?: string
}

interface VkPhotoImage {
  height: number
  width: number
  url: string
  type: "p" | "q" | "s" | "m" | "x" | "l" | "o" | "r" | "y" | "z" | "w"
}

interface VkPhotoSize {
  height: number
  width: number
  src: string
  url: string
  type:
    | "max"
    | "k"
    | "a"
    | "b"
    | "i"
    | "p"
    | "q"
    | "s"
    | "g"
    | "m"
    | "x"
    | "l"
    | "o"
    | "r"
    | "y"
    | "z"
    | "w"
    | "c"
    | "e"
    | "d"
    | "j"
    | "temp"
    | "h"
    | "n"
    | "f"
}

interface VkRect {
  x: number
  x2: number
  y: number
  y2: number
}

/** A VK user object from `users.get`, as the spec's profile table lists it. */
export interface VkProfile extends Declensions {
  id: number
  first_name: string
  last_name: string
  can_access_closed: boolean
  is_closed: boolean
  photo_100: string

  about?: string
  activities?: string
  bdate?: string
  books?: string
  deactivated?: string
  domain?: string
  email?: string
  games?: string
  home_town?: string
  interests?: string
  maiden_name?: string
  movies?: string
  music?: string
  nickname?: string
  photo_200?: string
  photo_200_orig?: string
  photo_400?: string
  photo_400_orig?: string
  photo_50?: string
  photo_id?: string
  photo_max?: string
  photo_max_orig?: string
  quotes?: string
  screen_name?: string
  site?: string
  status?: string
  tv?: string

  common_count?: number
  followers_count?: number
  online_app?: number
  timezone?: number

  blacklisted?: Flag
  blacklisted_by_me?: Flag
  can_post?: Flag
  can_see_all_posts?: Flag
  can_see_audio?: Flag
  can_send_friend_request?: Flag
  can_write_private_message?: Flag
  has_mobile?: Flag
  has_photo?: Flag
  is_favorite?: Flag
  is_friend?: Flag
  is_hidden_from_feed?: Flag
  is_no_index?: Flag
  online?: Flag
  online_mobile?: Flag
  trending?: Flag
  verified?: Flag

  friend_status?: 0 | 1 | 2 | 3
  sex?: 0 | 1 | 2
  relation?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8
  wall_default?: "all" | "owner"

  city?: { id: number; title: string }
  country?: { id: number; title: string }
  career?: {
    city_id?: number
    city_name?: string
    company?: string
    country_id?: number
    from?: number
    group_id?: number
    position?: string
    until?: number
  }
  connections?: {
    facebook?: string
    instagram?: string
    livejournal?: string
    skype?: string
    twitter?: string
  }
  contacts?: { home_phone?: string; mobile_phone?: string }
  counters?: {
    albums?: number
    audios?: number
    followers?: number
    friends?: number
    groups?: number
    mutual_friends?: number
    notes?: number
    online_friends?: number
    pages?: number
    photos?: number
    user_videos?: number
    videos?: number
  }
  education?: {
    faculty?: number
    faculty_name?: string
    graduation?: number
    university?: number
    university_name?: string
  }
  exports?: { facebook?: number; instagram?: number; livejournal?: number; twitter?: number }
  last_seen?: { platform: 1 | 2 | 3 | 4 | 5 | 6 | 7; time: number }
  military?: { country_id: number; unit: string; unit_id: number; from?: number; until?: number }
  occupation?: { id: number; name: string; type: "work" | "school" | "university" }
  personal?: {
    alcohol?: 1 | 2 | 3 | 4 | 5
    smoking?: 1 | 2 | 3 | 4 | 5
    life_main?: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8
    people_main?: 1 | 2 | 3 | 4 | 5 | 6
    political?: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
    inspired_by?: string
    langs?: string[]
    religion?: string
  }
  relation_partner?: {
    id: number
    first_name: string
    last_name: string
    can_access_closed?: boolean
    deactivated?: string
    hidden?: number
    is_closed?: boolean
  }
  relatives?: Array<{
    id: number
    name: string
    type: "parent" | "child" | "grandparent" | "grandchild" | "sibling"
  }>
  schools?: Array<{
    city: number
    class: string
    country: number
    id: string
    name: string
    speciality: string
    type: number
    type_str: string
    year_from: number
    year_graduated: number
    year_to: number
  }>
  status_audio?: {
    artist: string
    duration: number
    id: number
    owner_id: number
    title: string
    access_key?: string
    album_id?: number
    date?: number
    genre_id?: number
    performer?: string
    url?: string
  }
  universities?: Array<{
    chair: number
    chair_name: string
    city: number
    country: number
    education_form: string
    education_status: string
    faculty: number
    faculty_name: string
    graduation: number
    id: number
    name: string
    university_group_id: number
  }>
  crop_photo?: {
    crop: VkRect
    rect: VkRect
    photo: {
      album_id: number
      date: number
      has_tags: boolean
      id: number
      owner_id: number
      access_key?: string
      can_comment?: Flag
      height?: number
      lat?: number
      long?: number
      photo_256?: string
      place?: string
      post_id?: number
      text?: string
      user_id?: number
      width?: number
      images?: VkPhotoImage[]
      sizes?: VkPhotoSize[]
    }
  }
  [field: string]: unknown
}

/** VK's own option names, accepted alongside `authorization`, `token` and `userinfo`. */
export interface VkOptions<P> extends OAuthUserConfig<P> {
  /** `{authorize_url}?response_type=code&v=<api_version>` */
  authorizationUrl?: string
  /** `{token_url}?v=<api_version>` */
  accessTokenUrl?: string
  /** The same shape as `accessTokenUrl` (VK has one token endpoint); `accessTokenUrl` wins. */
  requestTokenUrl?: string
  /** `{profile_url}?fields=photo_100&v=<api_version>` */
  profileUrl?: string
}

/** VK's token response: the access token, plus the user's id and (with the `email` scope) e-mail. */
export interface VkTokenSet extends TokenSet {
  user_id?: number
  email?: string
}

/**
 * A VK user id (a positive integer JSON can carry exactly), or `null`. Past
 * 2^53 two ids parse to one number, and one VK user would sign in as another.
 */
function vkUserId(value: unknown): number | null {
  const id = typeof value === "string" && /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : value
  return typeof id === "number" && Number.isSafeInteger(id) && id > 0 ? id : null
}

/**
 * `users.get` with the token in the POST body, not the URL, where it would
 * end up in access logs, and as a bearer header, as Auth.js sends it. Unwraps
 * `{ response: [profile] }` and puts the token response's `email` on the
 * profile (`users.get` never returns it), as Auth.js does, so an app's own
 * `profile()` callback and the `jwt`/`signIn` callbacks read `profile.email`.
 */
async function requestProfile({
  tokens,
  provider,
  fetch,
}: UserinfoRequestContext): Promise<Profile> {
  const url = provider.userinfo?.url
  if (!url) throw new Error("VK: no profile URL")
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      accept: "application/json",
      authorization: `Bearer ${String(tokens.access_token)}`,
    },
    body: new URLSearchParams({ access_token: String(tokens.access_token) }),
  })
  const body = (await response.json().catch(() => undefined)) as
    { response?: VkProfile[]; error?: { error_code?: number; error_msg?: string } } | undefined
  if (!response.ok || !body) throw new Error(`VK: users.get answered ${response.status}`)
  if (body.error)
    throw new Error(
      `VK: users.get error ${body.error.error_code ?? ""} ${body.error.error_msg ?? ""}`.trim(),
    )
  const profile = body.response?.[0]
  if (!profile || typeof profile !== "object" || Array.isArray(profile))
    throw new Error("VK: users.get returned no user")
  const id = vkUserId(profile.id)
  if (id === null) throw new Error("VK: users.get returned a user without a valid id")
  const { user_id: tokenUserId, email } = tokens as VkTokenSet
  // The token response names whose token it is: the profile must be that user's.
  if (tokenUserId !== undefined && tokenUserId !== null && vkUserId(tokenUserId) !== id)
    throw new Error("VK: users.get answered for another user than the token response's user_id")
  if (email !== undefined && email !== null && typeof email !== "string")
    throw new Error("VK: the token response's email is not a string")
  // null when VK sent none, as in Auth.js.
  return {
    ...profile,
    email: typeof email === "string" ? email : (profile.email ?? null),
  } as unknown as Profile
}

/**
 * Sign in with VK (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_VK_ID`, `AUTH_VK_SECRET`); the
 *   spec's option names
 *   `authorizationUrl`, `accessTokenUrl`, `requestTokenUrl`, `profileUrl` are accepted beside
 *   `authorization`, `token`, `userinfo`.
 * @see [Auth.js: VK](https://authjs.dev/reference/core/providers/vk)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function VK<P extends VkProfile = VkProfile>(
  options: VkOptions<P> = {},
): OAuthConfig<P> {
  const { authorizationUrl, accessTokenUrl, requestTokenUrl, profileUrl, ...standard } = options
  // VK's names become the standard endpoints' URLs; explicit standard options win.
  const userOptions: OAuthUserConfig<P> = endpointUrlsAsObjects(standard)
  if (authorizationUrl && standard.authorization === undefined)
    userOptions.authorization = { url: authorizationUrl }
  const tokenUrl = accessTokenUrl ?? requestTokenUrl
  if (tokenUrl && standard.token === undefined) userOptions.token = { url: tokenUrl }
  if (profileUrl && standard.userinfo === undefined) userOptions.userinfo = { url: profileUrl }

  return {
    id: "vk",
    name: "VK",
    type: "oauth",
    authorization: {
      url: `https://oauth.vk.com/authorize?response_type=code&v=${VK_API_VERSION}`,
      params: { scope: "email" },
    },
    // oauth.vk.com issues no refresh tokens (its tokens expire, or with `offline` never do).
    tokenRefresh: false,
    token: {
      url: `https://oauth.vk.com/access_token?v=${VK_API_VERSION}`,
      // VK sends no `token_type`; its tokens are bearer tokens.
      conform: withBearerTokenType,
    },
    userinfo: {
      url: `https://api.vk.com/method/users.get?fields=photo_100&v=${VK_API_VERSION}`,
      request: requestProfile,
    },
    // VK checks client_id and client_secret as request parameters.
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["state"],
    profile(profile, tokens) {
      const email = (tokens as VkTokenSet).email ?? profile.email ?? null
      return {
        id: idText(profile.id),
        name: [profile.first_name, profile.last_name].filter(Boolean).join(" ") || null,
        email: typeof email === "string" ? email : null,
        image: profile.photo_100 ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#0077ff" },
    options: userOptions,
  }
}
