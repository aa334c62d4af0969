/**
 * Sign in with BankID Norge, Norway's bank-issued electronic ID (OpenID Connect).
 *
 * Get an OIDC client from BankID (through a BankID partner) with
 * `https://<your app>/auth/callback/bankid-no` as a redirect URI.
 * `clientId`/`clientSecret` default to `AUTH_BANKID_NO_ID`/`AUTH_BANKID_NO_SECRET`.
 * The issuer is the production realm, `https://auth.bankid.no/auth/realms/prod`;
 * for BankID's test environment give `issuer:
 * "https://auth.current.bankid.no/auth/realms/current"` (or
 * `AUTH_BANKID_NO_ISSUER`).
 *
 * @example
 * ```ts
 * import BankIDNorway from "@tessera/core/providers/bankid-no"
 * BankIDNorway({ clientId: process.env.BANKID_ID, clientSecret: process.env.BANKID_SECRET })
 * ```
 *
 * BankID's own ways, handled here:
 * - The profile is read from the userinfo endpoint (`idToken: false`), whose
 *   answer is a signed JWT (`userinfo_signed_response_alg: RS256`): its
 *   signature is checked against BankID's keys, its `sub` against the ID Token's.
 * - The authorization asks for the Norwegian user interface (`ui_locales=no`)
 *   and BankID on the web (`login_hint=BIS`); override
 *   `authorization.params` for others (e.g. `BIM` for BankID on mobile).
 * - The checks are PKCE, `state` and `nonce`; client credentials go in the
 *   token request's body (`client_secret_post`).
 *
 * Verified e-mail: none. BankID verifies the person, not the address: `email`
 * is what users registered themselves, and BankID sends no `email_verified`.
 * @see https://confluence.bankidnorge.no/confluence/pdoidcl/technical-documentation/api/userinfo
 * @see https://confluence.bankidnorge.no/confluence/pdoidcl
 * @module
 */
import { endpointUrlsAsObjects } from "../flows/oauth/provider-options.js"
import type { OIDCConfig, OIDCUserConfig, ProviderClaim } from "./oauth.js"

/** The claims of BankID's (signed) userinfo response. */
export interface BankIDNorwayProfile {
  iss: string
  aud: string | string[]
  sub: string
  iat?: number
  exp?: number
  updated_at?: number
  /** `family name, given names`, from the BankID certificate. */
  name: string
  given_name: string
  family_name: string
  birthdate: string
  /** How the user signed in: BankID on the web, on mobile, ... */
  amr?: "BID" | "BIM" | "BIS" | string
  bankid_altsub?: string
  /** With the `nnin_altsub` scope, for eligible clients: the national identity number. */
  nnin_altsub?: string
  originator?: string
  /** With the `email` scope: registered by the user, not verified. */
  email?: string
  phone_number?: string
  address?: Record<string, ProviderClaim>
  [claim: string]: ProviderClaim
}

/**
 * Sign in with BankID Norge (OpenID Connect).
 *
 * @param options `clientId` and `clientSecret` (default: `AUTH_BANKID_NO_ID`,
 *   `AUTH_BANKID_NO_SECRET`), `issuer` for the test environment, and any OAuth option to
 *   override (`authorization`, `profile`, `checks`, ...).
 * @see [Auth.js: BankID Norge](https://authjs.dev/reference/core/providers/bankid-no)
 * @see [OpenID Connect Core 1.0 §5.3, UserInfo Endpoint](https://openid.net/specs/openid-connect-core-1_0.html#UserInfo)
 */
export default function BankIDNorway<P extends BankIDNorwayProfile = BankIDNorwayProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "bankid-no",
    name: "BankID Norge",
    type: "oidc",
    issuer: "https://auth.bankid.no/auth/realms/prod",
    client: {
      token_endpoint_auth_method: "client_secret_post",
      userinfo_signed_response_alg: "RS256",
    },
    idToken: false,
    authorization: { params: { ui_locales: "no", login_hint: "BIS" } },
    checks: ["pkce", "state", "nonce"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: null,
      }
    },
    verifiedEmail: () => null,
    style: { brandColor: "#39134c" },
    options: endpointUrlsAsObjects(options),
  }
}
