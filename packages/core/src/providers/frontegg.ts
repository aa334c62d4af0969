/**
 * Sign in with Frontegg (OpenID Connect).
 *
 * In the Frontegg portal, add `https://<your app>/auth/callback/frontegg` to
 * your environment's allowed redirect URLs (Authentication, Login method), and
 * take the client id and API key (the secret) from Settings. The issuer is the
 * environment's domain, `https://<subdomain>.frontegg.com` (or your custom
 * domain). `clientId`, `clientSecret` and `issuer` default to
 * `AUTH_FRONTEGG_ID`, `_SECRET` and `_ISSUER`.
 *
 * @example
 * ```ts
 * import Frontegg from "@tessera/core/providers/frontegg"
 * Frontegg({
 *   clientId: process.env.AUTH_FRONTEGG_ID,
 *   clientSecret: process.env.AUTH_FRONTEGG_SECRET,
 *   issuer: "https://acme.frontegg.com",
 * })
 * ```
 *
 * Frontegg's ways, handled here: its metadata lives under `/oauth`
 * (`<issuer>/oauth/.well-known/openid-configuration`), not at the issuer's
 * own well-known URL, and its `issuer` is the domain itself; the endpoints are
 * `<issuer>/oauth/authorize`, `/oauth/token` and, for `idToken: false`,
 * `/identity/resources/users/v2/me`. The picture is `picture`, else
 * Frontegg's `profilePictureUrl`.
 *
 * Verified e-mail: `email` when `email_verified` is true.
 * @see https://docs.frontegg.com/
 * @see https://docs.frontegg.com/docs/admin-portal-profile
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  emailIfVerified,
  type OIDCConfig,
  type OIDCUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The claims of a Frontegg ID Token. */
export interface FronteggProfile {
  iss: string
  aud: string
  sub: string
  iat: number
  exp: number
  name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  /** Frontegg's own name for the picture. */
  profilePictureUrl?: string
  roles?: string[]
  tenantId?: string
  [claim: string]: ProviderClaim
}

/**
 * Sign in with Frontegg (OpenID Connect).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (the environment's domain; default
 *   `AUTH_FRONTEGG_ID`, `AUTH_FRONTEGG_SECRET`, `AUTH_FRONTEGG_ISSUER`), and any OAuth option to override.
 * @see [Auth.js: Frontegg](https://authjs.dev/reference/core/providers/frontegg)
 * @see https://docs.frontegg.com/
 */
export default function Frontegg<P extends FronteggProfile = FronteggProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  const { issuer: given, ...rest } = options
  // Without an issuer there is nothing to build on: resolution then says the issuer is missing.
  const issuer = given?.replace(/\/+$/, "")
  const endpoints = issuer
    ? {
        issuer,
        wellKnown: `${issuer}/oauth/.well-known/openid-configuration`,
        authorization: `${issuer}/oauth/authorize`,
        token: `${issuer}/oauth/token`,
        userinfo: `${issuer}/identity/resources/users/v2/me`,
      }
    : {}
  return {
    id: "frontegg",
    name: "Frontegg",
    type: "oidc",
    ...endpoints,
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? profile.profilePictureUrl ?? null,
      }
    },
    verifiedEmail: emailIfVerified,
    style: { brandColor: "#000000" },
    options: endpointUrlsAsObjects(rest),
  }
}
