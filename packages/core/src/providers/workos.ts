/**
 * Sign in with WorkOS SSO (OAuth 2.0): enterprise SAML and OIDC connections
 * behind one client.
 *
 * Add `https://<your app>/auth/callback/workos` as a redirect URI in the WorkOS
 * dashboard. `clientId` (the client id) and `clientSecret` (an API key) default
 * to `AUTH_WORKOS_ID`/`AUTH_WORKOS_SECRET`. `issuer` is the API's base URL
 * (default `https://api.workos.com/`).
 *
 * WorkOS must know which connection to use: pass `connection` (or
 * `organization`, `provider`, `domain_hint`, `login_hint`) per sign-in as an
 * authorization parameter, e.g. from a form that asks for the user's work
 * e-mail, or a fixed `connection` to the factory.
 *
 * @example
 * ```ts
 * import WorkOS from "@tessera/core/providers/workos"
 * WorkOS({ clientId: process.env.AUTH_WORKOS_ID, clientSecret: process.env.AUTH_WORKOS_SECRET })
 * // POST /auth/signin/workos?organization=org_01EHZNVPK3SFK441A1RGBFSHRT
 * ```
 *
 * The client secret goes in the token request's body; the token response
 * carries the profile too; the profile is `GET /sso/profile`, the name first and
 * last name joined, the picture `raw_attributes.picture` when the identity
 * provider sends one.
 *
 * Verified e-mail: none. The address comes from the customer's identity
 * provider, not from WorkOS, and carries no verification.
 * @see https://workos.com/docs/reference/sso/get-authorization-url
 * @see https://workos.com/docs/reference/sso/profile
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import {
  withBearerTokenType,
  type OAuthConfig,
  type OAuthUserConfig,
  type ProviderClaim,
} from "./oauth.js"

/** The SSO profile from `GET /sso/profile`. */
export interface WorkOSProfile {
  object: "profile"
  id: string
  organization_id: string | null
  connection_id: string
  connection_type: string
  idp_id: string
  email: string
  first_name: string | null
  last_name: string | null
  role?: { slug: string }
  groups?: string[]
  raw_attributes: { picture?: string; [attribute: string]: unknown }
  [claim: string]: ProviderClaim
}

export interface WorkOSOptions<P> extends OAuthUserConfig<P> {
  /** A fixed WorkOS connection id (`conn_...`) for every sign-in. */
  connection?: string
}

/**
 * Sign in with WorkOS SSO (OAuth 2.0): enterprise SAML and OIDC connections
 *
 * @param options `clientId` and `clientSecret` (default `AUTH_WORKOS_ID`, `AUTH_WORKOS_SECRET`), and any OAuth option to override.
 * @see [Auth.js: WorkOS](https://authjs.dev/reference/core/providers/workos)
 * @see https://workos.com/docs/reference/sso/get-authorization-url
 * @see https://workos.com/docs/reference/sso/profile
 */
export default function WorkOS<P extends WorkOSProfile = WorkOSProfile>(
  options: WorkOSOptions<P> = {},
): OAuthConfig<P> {
  const { issuer = "https://api.workos.com/", connection, ...rest } = options
  const base = issuer.endsWith("/") ? issuer : `${issuer}/`
  return {
    id: "workos",
    name: "WorkOS",
    type: "oauth",
    authorization: {
      url: `${base}sso/authorize`,
      params: connection ? { connection } : {},
    },
    token: { url: `${base}sso/token`, conform: withBearerTokenType },
    userinfo: `${base}sso/profile`,
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const name = [profile.first_name, profile.last_name].filter(Boolean).join(" ")
      return {
        id: profile.id,
        name: name || null,
        email: profile.email ?? null,
        image:
          typeof profile.raw_attributes?.picture === "string"
            ? profile.raw_attributes.picture
            : null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#6363f1" },
    options: endpointUrlsAsObjects(rest),
  }
}
