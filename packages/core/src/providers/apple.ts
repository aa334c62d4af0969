/**
 * Sign in with Apple (OpenID Connect).
 *
 * Register `https://<your app>/auth/callback/apple` as a Return URL of your
 * Services ID (https only: Apple refuses http and localhost). `clientId` is the
 * Services ID; `clientSecret` is the client secret JWT you sign with your
 * Sign in with Apple key (ES256, at most 6 months valid). Both default to
 * `AUTH_APPLE_ID`/`AUTH_APPLE_SECRET`.
 *
 * @example
 * ```ts
 * import Apple from "@tessera/core/providers/apple"
 * Apple({ clientId: process.env.APPLE_ID, clientSecret: process.env.APPLE_SECRET })
 * ```
 *
 * Apple's own ways, handled here:
 * - With the `name` or `email` scope Apple answers with `response_mode=form_post`:
 *   the callback is a cross-site POST, so the check cookies are `SameSite=None; Secure`.
 * - The user's name is sent once, on the first sign-in only, as a `user` JSON
 *   field of that POST; it is added to the profile as `profile.user`. Store it
 *   then (the `signIn` event, or your adapter): Apple never sends it again.
 *   That field is not signed (it passes through the browser), so it is used
 *   for the name only; the e-mail is the ID Token's.
 * - Everything else comes from the ID Token; there is no userinfo endpoint.
 *
 * Verified e-mail: the ID Token's `email` when `email_verified` is true, or the
 * string `"true"` Apple has been documented to send.
 * @see https://developer.apple.com/documentation/sign_in_with_apple/sign_in_with_apple_rest_api/authenticating_users_with_sign_in_with_apple
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import type { OIDCConfig, OIDCUserConfig, UserinfoRequestContext, ProviderClaim } from "./oauth.js"

/** The `user` field Apple posts on the first authorization. */
export interface AppleUser {
  name?: { firstName?: string; lastName?: string }
  email?: string
}

/**
 * Auth.js's name for {@link AppleUser}: the `user` field Apple posts on the first authorization.
 *
 * @see [Sign in with Apple: the user's information](https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server)
 */
export type AppleNonConformUser = AppleUser

/** The claims of Apple's ID Token, plus `user` on the first sign-in. */
export interface AppleProfile {
  iss: "https://appleid.apple.com"
  aud: string
  iat: number
  exp: number
  sub: string
  at_hash?: string
  email?: string
  /** `true`/`false`, or the strings `"true"`/`"false"`. */
  email_verified?: boolean | "true" | "false"
  is_private_email?: boolean | "true" | "false"
  real_user_status?: 0 | 1 | 2
  nonce?: string
  nonce_supported?: boolean
  auth_time?: number
  transfer_sub?: string
  user?: AppleUser
  [claim: string]: ProviderClaim
}

/** Apple's names are short; the posted field is not, when the user signing in wrote it. */
const NAME_LENGTH = 100

/**
 * One part of the posted name as display text: a string, control characters (a NUL, which
 * PostgreSQL's text refuses; terminal escapes) removed, at most {@link NAME_LENGTH} characters.
 */
function namePart(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined
  const text = value.replace(/[\u0000-\u001f\u007f]/g, "").trim()
  return text === "" ? undefined : Array.from(text).slice(0, NAME_LENGTH).join("")
}

/**
 * The posted `user`, reduced to what Apple sends: it passes through the browser unsigned, so the
 * user signing in writes whatever they like in it. Only string name parts are kept (cleaned);
 * the e-mail is kept as a string for `profile.user` but never used (the ID Token's is).
 */
function parseUser(raw: string | undefined): AppleUser | undefined {
  if (!raw) return undefined
  let user: unknown
  try {
    user = JSON.parse(raw)
  } catch {
    return undefined
  }
  if (!user || typeof user !== "object" || Array.isArray(user)) return undefined
  const { name, email } = user as Record<string, unknown>
  const parts =
    name && typeof name === "object"
      ? {
          firstName: namePart((name as Record<string, unknown>).firstName),
          lastName: namePart((name as Record<string, unknown>).lastName),
        }
      : {}
  const clean: AppleUser = {}
  if (parts.firstName !== undefined || parts.lastName !== undefined)
    clean.name = Object.fromEntries(Object.entries(parts).filter(([, part]) => part !== undefined))
  if (typeof email === "string") clean.email = email
  return clean
}

/** The validated ID Token claims, plus the `user` Apple posted alongside the code. */
function profileFromCallback({ claims, params }: UserinfoRequestContext): Profile {
  const user = parseUser(params.user)
  return { ...claims, ...(user ? { user } : {}) }
}

/**
 * Sign in with Apple (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_APPLE_ID`, `AUTH_APPLE_SECRET`), and
 *   any
 *   option of the generic OAuth provider to override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: Apple](https://authjs.dev/reference/core/providers/apple)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 * @see [Sign in with Apple REST API](https://developer.apple.com/documentation/sign_in_with_apple/sign_in_with_apple_rest_api)
 */
export default function Apple<P extends AppleProfile = AppleProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "apple",
    name: "Apple",
    type: "oidc",
    issuer: "https://appleid.apple.com",
    authorization: { params: { scope: "name email", response_mode: "form_post" } },
    // The profile is the ID Token plus the posted user: built by `userinfo.request`.
    idToken: false,
    userinfo: { request: profileFromCallback },
    client: { token_endpoint_auth_method: "client_secret_post" },
    checks: ["nonce", "state"],
    profile(profile) {
      const name = [profile.user?.name?.firstName, profile.user?.name?.lastName]
        .filter(Boolean)
        .join(" ")
      // The e-mail comes from the signed ID Token only: the posted `user` passes through the browser unsigned.
      return { id: profile.sub, name: name || null, email: profile.email ?? null, image: null }
    },
    verifiedEmail: (profile) =>
      (profile.email_verified === true || profile.email_verified === "true") && profile.email
        ? profile.email
        : null,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(options),
  }
}
