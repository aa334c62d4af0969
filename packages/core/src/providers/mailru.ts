/**
 * Sign in with Mail.ru (VK ID for Mail.ru accounts, OAuth 2.0).
 *
 * Register an app at o2.mail.ru with `https://<your app>/auth/callback/mailru`
 * as its redirect URI. `clientId`/`clientSecret` default to
 * `AUTH_MAILRU_ID`/`AUTH_MAILRU_SECRET`.
 *
 * @example
 * ```ts
 * import Mailru from "@tessera/core/providers/mailru"
 * Mailru({ clientId: process.env.AUTH_MAILRU_ID, clientSecret: process.env.AUTH_MAILRU_SECRET })
 * ```
 *
 * The scope is `userinfo`; the profile is `GET oauth.mail.ru/userinfo`, whose
 * picture is `image`.
 *
 * Verified e-mail: none. The `email` of the profile comes with no flag saying it
 * was verified.
 * @see https://oauth.mail.ru/docs
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from `GET /userinfo`. */
export interface MailruProfile {
  id: string
  client_id?: string
  email?: string
  name?: string
  nickname?: string
  first_name?: string
  last_name?: string
  gender?: "m" | "f"
  birthday?: string
  locale?: string
  image?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Mail.ru (VK ID for Mail.ru accounts, OAuth 2.0).
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_MAILRU_ID`, `AUTH_MAILRU_SECRET`), and any OAuth option to override.
 * @see [Auth.js: Mailru](https://authjs.dev/reference/core/providers/mailru)
 * @see https://oauth.mail.ru/docs
 */
export default function Mailru<P extends MailruProfile = MailruProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "mailru",
    name: "Mail.ru",
    type: "oauth",
    authorization: { url: "https://oauth.mail.ru/login", params: { scope: "userinfo" } },
    token: "https://oauth.mail.ru/token",
    userinfo: "https://oauth.mail.ru/userinfo",
    profile(profile) {
      const full = [profile.first_name, profile.last_name].filter(Boolean).join(" ")
      return {
        id: idText(profile.id),
        name: profile.name ?? (full || profile.nickname) ?? null,
        email: profile.email ?? null,
        image: profile.image ?? null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#005ff9" },
    options: endpointUrlsAsObjects(options),
  }
}
