/**
 * Sign in with the 42 network's intranet (OAuth 2.0).
 *
 * Register an application at https://profile.intra.42.fr/oauth/applications
 * with `https://<your app>/auth/callback/42-school` as its redirect URI
 * (scope `public`). `clientId`/`clientSecret` (UID and secret) default to
 * `AUTH_42_SCHOOL_ID`/`AUTH_42_SCHOOL_SECRET`.
 *
 * @example
 * ```ts
 * import FortyTwo from "@tessera/core/providers/42-school"
 * FortyTwo({ clientId: process.env.FORTY_TWO_ID, clientSecret: process.env.FORTY_TWO_SECRET })
 * ```
 *
 * The user is `GET /v2/me`: the name is `usual_full_name` (the name the student
 * goes by), else `displayname`; the image is `image.link`, which is null for
 * a user without a photo.
 *
 * Verified e-mail: none. `email` is the address of the intranet account, which
 * comes with no flag saying 42 verified it.
 * @see https://api.intra.42.fr/apidoc/guides/web_application_flow
 * @see https://api.intra.42.fr/apidoc/2.0/users/me.html
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** A user's photo, with its resized versions. */
export interface FortyTwoImage {
  link: string | null
  versions: {
    large: string | null
    medium: string | null
    small: string | null
    micro: string | null
  }
}

/** Auth.js's name for {@link FortyTwoImage}. */
export type Image = FortyTwoImage

/** The account fields of a 42 user, as `GET /v2/me` and `GET /v2/users/:id` give them. */
export interface UserData {
  id: number
  email: string
  login: string
  first_name: string
  last_name: string
  usual_full_name: string | null
  usual_first_name: string | null
  url: string
  phone: string | null
  displayname: string
  image_url: string | null
  "staff?": boolean
  correction_point: number
  pool_month: string | null
  pool_year: string | null
  location: string | null
  wallet: number
  anonymize_date: string
  created_at: string
  updated_at: string | null
  alumni: boolean
  "is_launched?": boolean
}

/** A user's enrolment in a cursus (`cursus_users`). */
export interface CursusUser {
  id: number
  grade: string | null
  level: number
  skills: Array<{ id: number; name: string; level: number }>
  blackholed_at: string | null
  begin_at: string | null
  end_at: string | null
  cursus_id: number
  has_coalition: boolean
  created_at: string
  updated_at: string | null
  user: UserData
  cursus: { id: number; created_at: string; name: string; slug: string }
}

/** A user's attempt at a project (`projects_users`). */
export interface ProjectUser {
  id: number
  occurrence: number
  final_mark: number | null
  status: "in_progress" | "finished"
  "validated?": boolean | null
  current_team_id: number
  project: { id: number; name: string; slug: string; parent_id: number | null }
  cursus_ids: number[]
  marked_at: string | null
  marked: boolean
  retriable_at: string | null
  created_at: string
  updated_at: string | null
}

/** An achievement a user earned (`achievements`). */
export interface Achievement {
  id: number
  name: string
  description: string
  tier: "none" | "easy" | "medium" | "hard" | "challenge"
  kind: "scolarity" | "project" | "pedagogy" | "social"
  visible: boolean
  image: string | null
  nbr_of_success: number | null
  users_url: string
}

/** A language a user speaks (`languages_users`). */
export interface LanguagesUser {
  id: number
  language_id: number
  user_id: number
  position: number
  created_at: string
}

/** A title a user holds (`titles_users`). */
export interface TitlesUser {
  id: number
  user_id: number
  title_id: number
  selected: boolean
  created_at: string
  updated_at: string | null
}

/** An expertise a user declared (`expertises_users`). */
export interface ExpertisesUser {
  id: number
  expertise_id: number
  interested: boolean
  value: number
  contact_me: boolean
  created_at: string
  user_id: number
}

/** A 42 campus (`campus`). */
export interface Campus {
  id: number
  name: string
  time_zone: string
  language: {
    id: number
    name: string
    identifier: string
    created_at: string
    updated_at: string | null
  }
  users_count: number
  vogsphere_id: number
  country: string
  address: string
  zip: string
  city: string
  website: string
  facebook: string
  twitter: string
  active: boolean
  email_extension: string
  default_hidden_phone: boolean
}

/** A user's membership of a campus (`campus_users`). */
export interface CampusUser {
  id: number
  user_id: number
  campus_id: number
  is_primary: boolean
  created_at: string
  updated_at: string | null
}

/** The user from `GET /v2/me` (the fields a sign-in uses, and the usual ones). */
export interface FortyTwoProfile {
  id: number
  email: string
  login: string
  first_name: string
  last_name: string
  usual_full_name: string | null
  usual_first_name: string | null
  displayname: string
  url: string
  phone: string | null
  kind: string
  image: FortyTwoImage
  "staff?": boolean
  "alumni?": boolean
  "active?": boolean
  correction_point: number
  pool_month: string | null
  pool_year: string | null
  location: string | null
  wallet: number
  created_at: string
  updated_at: string | null
  cursus_users: Array<Record<string, ProviderClaim>>
  campus: Array<Record<string, ProviderClaim>>
  [claim: string]: ProviderClaim
}

/**
 * Sign in with 42 (OAuth 2).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_42_SCHOOL_ID`,
 *   `AUTH_42_SCHOOL_SECRET`), and any option of the generic OAuth provider to override
 *   (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: 42 School](https://authjs.dev/reference/core/providers/42-school)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function FortyTwo<P extends FortyTwoProfile = FortyTwoProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "42-school",
    name: "42 School",
    type: "oauth",
    authorization: { url: "https://api.intra.42.fr/oauth/authorize", params: { scope: "public" } },
    token: "https://api.intra.42.fr/oauth/token",
    userinfo: "https://api.intra.42.fr/v2/me",
    profile(profile) {
      return {
        id: idText(profile.id),
        name: profile.usual_full_name ?? profile.displayname ?? null,
        email: profile.email ?? null,
        image: profile.image?.link ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
