/**
 * Sign in with Osso (OAuth 2.0): SAML single sign-on, bridged to OAuth by your Osso instance.
 *
 * In Osso's admin, create an OAuth client with
 * `https://<your app>/auth/callback/osso` as a redirect URI. `issuer` is your
 * instance's URL, e.g. `https://demo.ossoapp.com`. `clientId`, `clientSecret` and
 * `issuer` default to `AUTH_OSSO_ID`, `_SECRET` and `_ISSUER` (with the factory
 * form, `providers: [Osso]`, for the issuer: the endpoints are made from it).
 *
 * @example
 * ```ts
 * import Osso from "@tessera/core/providers/osso"
 * Osso({
 *   clientId: process.env.OSSO_ID,
 *   clientSecret: process.env.OSSO_SECRET,
 *   issuer: "https://demo.ossoapp.com",
 * })
 * // Which customer's identity provider: the domain (or the user's address), at sign-in
 * signIn("osso", {}, { domain: "acme.example" })
 * ```
 *
 * Osso's own ways, handled here:
 * - the endpoints are under the instance (`/oauth/authorize`, `/oauth/token`,
 *   `/oauth/me`), whether the issuer is given with a trailing slash or not;
 * - the identity provider is chosen by `domain` or `email` in the authorization
 *   request (Osso shows its own form without them);
 * - `/oauth/me` gives `id`, `email` and `idp`: no name, no picture;
 * - Osso documents no PKCE: `state` is checked as well.
 *
 * Verified e-mail: none: the address is what the customer's SAML identity provider
 * asserts, which Osso passes on without verifying.
 * @see https://ossoapp.com/docs/reference/oauth-api
 * @module
 */
import { endpointUrlsAsObjects, idText } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** The user from Osso's `GET /oauth/me`. */
export interface OssoProfile {
  id: string
  email: string
  /** The identity provider that signed the user in (`OKTA`, `AZURE`, ...). */
  idp: string
  /** What the authorization request asked for. */
  requested?: { domain?: string; email?: string }
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Osso (OAuth 2).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (the instance's URL; default:
 *   `AUTH_OSSO_ID`, `AUTH_OSSO_SECRET`, `AUTH_OSSO_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Osso](https://authjs.dev/reference/core/providers/osso)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function Osso<P extends OssoProfile = OssoProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  // The instance is where the endpoints live; Osso sends no `iss` to check.
  const { issuer, ...rest } = options
  const base = issuer?.replace(/\/+$/, "")
  return {
    id: "osso",
    name: "Osso",
    type: "oauth",
    ...(base
      ? {
          authorization: { url: `${base}/oauth/authorize` },
          token: { url: `${base}/oauth/token` },
          userinfo: { url: `${base}/oauth/me` },
        }
      : {}),
    checks: ["pkce", "state"],
    profile(profile) {
      return { id: idText(profile.id), name: null, email: profile.email ?? null, image: null }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#1d4ed8" },
    options: endpointUrlsAsObjects(rest),
  }
}
