/**
 * Sign in with Nextcloud (OAuth 2.0), on one Nextcloud server.
 *
 * As an administrator, add an OAuth 2.0 client (Administration settings,
 * Security) with `https://<your app>/auth/callback/nextcloud` as its redirect
 * URI. `issuer` is the server's URL, e.g. `https://cloud.example.com` (with its
 * path, if Nextcloud is installed under one). `clientId`, `clientSecret` and
 * `issuer` default to `AUTH_NEXTCLOUD_ID`, `_SECRET` and `_ISSUER` (with
 * `providers: [Nextcloud]`, whose factory is then called with them).
 *
 * @example
 * ```ts
 * import Nextcloud from "@tessera/core/providers/nextcloud"
 * Nextcloud({
 *   clientId: process.env.AUTH_NEXTCLOUD_ID,
 *   clientSecret: process.env.AUTH_NEXTCLOUD_SECRET,
 *   issuer: "https://cloud.example.com",
 * })
 * ```
 *
 * Nextcloud's ways, handled here:
 * - The endpoints are under the server's URL (`/apps/oauth2/authorize`,
 *   `/apps/oauth2/api/v1/token`); Nextcloud sends no `iss` to check. `state`
 *   is sent and checked besides PKCE.
 * - The token response names the user (`user_id`); the profile is that user
 *   from the OCS API, `GET /ocs/v1.php/cloud/users/<user_id>`, which wants the
 *   `OCS-APIRequest: true` header and wraps the user as `{ ocs: { meta, data } }`.
 *   A response about another user than the token's is refused.
 * - The image is the user's avatar on the server (`/avatar/<id>/512`).
 *
 * Verified e-mail: none. The OCS user's `email` comes with no flag saying it was verified.
 * @see https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html
 * @see https://docs.nextcloud.com/server/latest/admin_manual/configuration_user/instruction_set_for_users.html
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { Profile } from "../types.js"
import {
  requestUserinfo,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
  type UserinfoRequestContext,
} from "./oauth.js"

/** The user from `GET /ocs/v1.php/cloud/users/<user id>`, in `ocs.data`. */
export interface NextcloudProfile {
  /** The user id (the login name). */
  id: string
  email: string | null
  displayname: string
  phone?: string
  address?: string
  website?: string
  twitter?: string
  fediverse?: string
  organisation?: string
  role?: string
  headline?: string
  biography?: string
  groups?: string[]
  language?: string
  locale?: string
  enabled?: boolean
  storageLocation?: string
  [claim: string]: ProviderClaim
}

export interface NextcloudOptions<P> extends OAuthUserConfig<P> {
  /** The Nextcloud server, e.g. `https://cloud.example.com`. Required. */
  issuer?: string
}

/** The token's user, from the OCS API; its `ocs.data` is the profile. */
async function requestOcsUser(context: UserinfoRequestContext): Promise<Profile> {
  const userId = context.tokens.user_id
  if (typeof userId !== "string" || userId === "")
    throw new Error("Nextcloud: the token response names no user_id")
  const url = `${context.provider.userinfo!.url!}/${encodeURIComponent(userId)}`
  const body = (await requestUserinfo(context, {
    url,
    headers: { "ocs-apirequest": "true" },
  })) as { ocs?: { data?: unknown } }
  const data = body.ocs?.data
  if (!data || typeof data !== "object" || Array.isArray(data))
    throw new Error("Nextcloud: the OCS response has no user")
  if ((data as { id?: unknown }).id !== userId)
    throw new Error("Nextcloud: the OCS response is about another user than the token's")
  return data as Profile
}

/**
 * Sign in with Nextcloud (OAuth 2.0), on one Nextcloud server.
 *
 * @param options `clientId`, `clientSecret` and `issuer` (the server's URL; default
 *   `AUTH_NEXTCLOUD_ID`, `AUTH_NEXTCLOUD_SECRET`, `AUTH_NEXTCLOUD_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Nextcloud](https://authjs.dev/reference/core/providers/nextcloud)
 * @see https://docs.nextcloud.com/server/latest/admin_manual/configuration_server/oauth2.html
 */
export default function Nextcloud<P extends NextcloudProfile = NextcloudProfile>(
  options: NextcloudOptions<P> = {},
): OAuthConfig<P> {
  // The server is where the endpoints live; with none, resolution says the endpoints are missing.
  const { issuer, ...rest } = options
  const base = issuer?.replace(/\/+$/, "")
  const endpoints = base
    ? {
        authorization: `${base}/apps/oauth2/authorize`,
        token: `${base}/apps/oauth2/api/v1/token`,
        userinfo: { url: `${base}/ocs/v1.php/cloud/users`, request: requestOcsUser },
      }
    : {}
  return {
    id: "nextcloud",
    name: "Nextcloud",
    type: "oauth",
    ...endpoints,
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: profile.id,
        name: profile.displayname || profile.id,
        email: profile.email || null,
        image: base ? `${base}/avatar/${encodeURIComponent(profile.id)}/512` : null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#0082c9" },
    options: endpointUrlsAsObjects(rest),
  }
}
