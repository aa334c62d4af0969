/**
 * Sign in with OneLogin (OpenID Connect).
 *
 * Add an "OpenID Connect (OIDC)" app in OneLogin's administration with
 * `https://<your app>/auth/callback/onelogin` as a redirect URI, the "Web"
 * application type and the "POST" or "Basic" token endpoint authentication
 * (Basic is what Tessera sends; set `client: { token_endpoint_auth_method:
 * "client_secret_post" }` for POST). The issuer is
 * `https://<subdomain>.onelogin.com/oidc/2`; the account's URL without `/oidc/2`
 * (Auth.js's form) is accepted too. `clientId`, `clientSecret` and `issuer`
 * default to `AUTH_ONELOGIN_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import OneLogin from "@tessera/core/providers/onelogin"
 * OneLogin({
 *   clientId: process.env.AUTH_ONELOGIN_ID,
 *   clientSecret: process.env.AUTH_ONELOGIN_SECRET,
 *   issuer: "https://acme.onelogin.com/oidc/2",
 * })
 * ```
 *
 * OneLogin's OpenID Connect (version 2) lives under `/oidc/2`: its metadata is
 * `<account>/oidc/2/.well-known/openid-configuration`, and its ID Tokens'
 * `iss` is `<account>/oidc/2`, so that is the issuer checked whichever form is given.
 *
 * Verified e-mail: `email` when `email_verified` is true; an ID Token without
 * the flag vouches for nothing.
 * @see https://developers.onelogin.com/openid-connect
 * @see https://developers.onelogin.com/openid-connect/api/authorization-code
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  profileOf,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of a OneLogin ID Token (with the `profile` and `email` scopes). */
export interface OneLoginProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  auth_time?: number
  sid?: string
  name?: string
  preferred_username?: string
  given_name?: string
  family_name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  groups?: string[]
  [claim: string]: ProviderClaim
}

/** `https://acme.onelogin.com`, with or without `/oidc/2`, -> `https://acme.onelogin.com/oidc/2`. */
function oidcIssuer(given: string): string {
  return `${given.replace(/\/+$/, "").replace(/\/oidc\/2$/, "")}/oidc/2`
}

/**
 * Sign in with OneLogin (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (`https://<subdomain>.onelogin.com/oidc/2`;
 *   default `AUTH_ONELOGIN_ID`, `AUTH_ONELOGIN_SECRET`, `AUTH_ONELOGIN_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: OneLogin](https://authjs.dev/reference/core/providers/onelogin)
 * @see https://developers.onelogin.com/openid-connect
 */
export default function OneLogin<P extends OneLoginProfile = OneLoginProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  const { issuer: given, ...rest } = options
  const issuer = given ? oidcIssuer(given) : undefined
  return {
    id: "onelogin",
    name: "OneLogin",
    type: "oidc",
    ...(issuer ? { issuer, wellKnown: `${issuer}/.well-known/openid-configuration` } : {}),
    profile: profileOf,
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(rest),
  }
}
