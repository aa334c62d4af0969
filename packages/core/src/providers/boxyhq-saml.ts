/**
 * Sign in through SAML single sign-on with BoxyHQ SAML Jackson (now Ory
 * Polis), which speaks SAML to your customers' identity providers and OAuth
 * 2.0 to your app: to Tessera it is an OAuth 2.0 provider.
 *
 * Run Jackson (self-hosted, or the hosted service) and add a SAML connection
 * per tenant with `https://<your app>/auth/callback/boxyhq-saml` as its
 * redirect URL. `issuer` is Jackson's own URL (its `EXTERNAL_URL`, e.g.
 * `https://jackson.example.com`): the endpoints are `<issuer>/api/oauth/*`.
 * `clientId`, `clientSecret` and `issuer` default to `AUTH_BOXYHQ_SAML_ID`,
 * `_SECRET` and `_ISSUER`. The client id is either a connection's client id or
 * `dummy` (the tenant and product are then sent with the sign-in); the secret
 * is the connection's, or Jackson's `CLIENT_SECRET_VERIFIER`.
 *
 * @example
 * ```ts
 * import BoxyHQSAML from "@tessera/core/providers/boxyhq-saml"
 * BoxyHQSAML({
 *   clientId: "dummy",
 *   clientSecret: process.env.BOXYHQ_SAML_SECRET,
 *   issuer: "https://jackson.example.com",
 * })
 * // Which tenant to sign in to, e.g. from the SvelteKit integration:
 * signIn("boxyhq-saml", {}, { tenant: "acme.example", product: "my-app" })
 * ```
 *
 * The factory builds the endpoints from `issuer`: give it to the factory (or
 * list the factory itself, `providers: [BoxyHQSAML]`, to have
 * `AUTH_BOXYHQ_SAML_ISSUER` passed to it). The authorization asks for
 * `provider=saml`; the user's name is `firstName` and `lastName` of the SAML
 * profile.
 *
 * Verified e-mail: none. `email` is whatever the customer's identity provider
 * asserted; Jackson passes it on without a flag saying anyone verified it.
 * @see https://www.ory.sh/docs/polis/sso-flow
 * @see https://www.ory.sh/docs/polis/guides/service
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OAuthConfig, OAuthUserConfig, ProviderClaim } from "./oauth.js"

/** `GET <issuer>/api/oauth/userinfo`: the SAML profile Jackson extracted. */
export interface BoxyHQSAMLProfile {
  id: string
  email: string
  firstName?: string
  lastName?: string
  roles?: string[]
  groups?: string[]
  /** The SAML assertion's attributes as received. */
  raw?: Record<string, ProviderClaim>
  /** The parameters of the sign-in (tenant, product, ...). */
  requested?: Record<string, ProviderClaim>
  [claim: string]: ProviderClaim
}

/**
 * Sign in through BoxyHQ SAML Jackson (OAuth 2).
 *
 * @param options `clientId`, `clientSecret` and `issuer` (Jackson's URL; default:
 *   `AUTH_BOXYHQ_SAML_ID`, `_SECRET`, `_ISSUER`), and any option of the generic OAuth provider
 *   to override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: BoxyHQ SAML](https://authjs.dev/reference/core/providers/boxyhq-saml)
 * @see [RFC 6749 §4.1, Authorization Code Grant](https://www.rfc-editor.org/rfc/rfc6749.html#section-4.1)
 */
export default function BoxyHQSAML<P extends BoxyHQSAMLProfile = BoxyHQSAMLProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  const base = options.issuer?.replace(/\/+$/, "")
  return {
    id: "boxyhq-saml",
    name: "BoxyHQ SAML",
    type: "oauth",
    // Without an issuer there is nothing to build the endpoints from; resolution says so.
    ...(base
      ? {
          authorization: { url: `${base}/api/oauth/authorize`, params: { provider: "saml" } },
          token: `${base}/api/oauth/token`,
          userinfo: `${base}/api/oauth/userinfo`,
        }
      : { authorization: { params: { provider: "saml" } } }),
    profile(profile) {
      const name = [profile.firstName, profile.lastName].filter(Boolean).join(" ")
      return { id: profile.id, name: name || null, email: profile.email ?? null, image: null }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#25c2a0" },
    options: endpointUrlsAsObjects(options),
  }
}
