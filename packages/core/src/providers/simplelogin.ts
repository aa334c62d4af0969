/**
 * Sign in with SimpleLogin (OpenID Connect), Proton's e-mail alias service.
 *
 * In SimpleLogin's developer page, create a website with
 * `https://<your app>/auth/callback/simplelogin` as an authorized redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_SIMPLELOGIN_ID`/`AUTH_SIMPLELOGIN_SECRET`.
 *
 * @example
 * ```ts
 * import SimpleLogin from "@tessera/core/providers/simplelogin"
 * SimpleLogin({ clientId: process.env.SIMPLELOGIN_ID, clientSecret: process.env.SIMPLELOGIN_SECRET })
 * ```
 *
 * The user chooses which address your app gets: the account's own, or an alias
 * (a SimpleLogin forwarding address, made for your app) that forwards to it.
 * The picture is `avatar_url`, not `picture`.
 *
 * Verified e-mail: `email` when `email_verified` is true: SimpleLogin sends it for
 * the address it hands out (the account's verified one, or an alias it delivers to).
 * @see https://simplelogin.io/docs/siwsl/intro/
 * @see https://simplelogin.io/docs/siwsl/oidc/
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of a SimpleLogin ID Token (`openid profile email`). */
export interface SimpleLoginProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  id: number
  email: string
  email_verified: boolean
  name: string
  avatar_url: string | null
  /** The app's name at SimpleLogin. */
  client: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with SimpleLogin (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_SIMPLELOGIN_ID`,
 *   `AUTH_SIMPLELOGIN_SECRET`), and any OAuth option to override.
 * @see [Auth.js: SimpleLogin](https://authjs.dev/reference/core/providers/simplelogin)
 * @see [OpenID Connect Core 1.0 §3.1, Authentication using the Authorization Code Flow](https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth)
 */
export default function SimpleLogin<P extends SimpleLoginProfile = SimpleLoginProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "simplelogin",
    name: "SimpleLogin",
    type: "oidc",
    issuer: "https://app.simplelogin.io",
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#e3156a" },
    options: endpointUrlsAsObjects(options),
  }
}
