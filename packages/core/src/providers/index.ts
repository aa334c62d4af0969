/**
 * Provider configuration types. Each built-in provider is its own subpath,
 * `@tessera/core/providers/<id>`, whose default export is the factory.
 * @module
 */
import type CredentialsProvider from "./credentials.js"
import type { CredentialsConfig, CredentialsProviderId } from "./credentials.js"
import type EmailProvider from "./email.js"
import type { EmailConfig, EmailProviderId } from "./email.js"
import type { OAuth2Config, OAuthConfig, OAuthProviderId, OIDCConfig } from "./oauth.js"
import type { WebAuthnConfig, WebAuthnProviderType } from "./webauthn.js"
import type { Profile } from "../types.js"

export type * from "./credentials.js"
export type * from "./email.js"
export type * from "./oauth.js"
export type * from "./webauthn.js"
export type { AppProvider } from "../types.js"

/**
 * `webauthn` is the WebAuthn provider type (the `passkey` provider is a `webauthn` provider).
 *
 * @see [Auth.js: ProviderType](https://authjs.dev/reference/core/providers#providertype)
 */
export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | "webauthn"

/**
 * A provider's id, as `signIn(id)` and the `/auth/signin/<id>` routes take it: any string (a
 * provider's `id`); the ids of the credentials, e-mail and passkey providers autocomplete.
 *
 * @see [Auth.js: ProviderId](https://authjs.dev/reference/core/providers#providerid)
 */
export type ProviderId =
  "credentials" | "email" | "nodemailer" | "passkey" | "webauthn" | (string & {})

/**
 * Fields every provider has.
 *
 * @see [Auth.js: providers](https://authjs.dev/reference/core/providers)
 */
export interface CommonProviderOptions {
  /** Unique among the configured providers; part of the URL (`/auth/signin/<id>`). */
  id: string
  /** Shown on the default sign-in button ("Sign in with <name>"). */
  name: string
  type: ProviderType
}

/**
 * Any provider after its factory ran: OAuth 2, OpenID Connect, e-mail, credentials or WebAuthn.
 *
 * @see [Auth.js: providers](https://authjs.dev/reference/core/providers)
 */
export type ProviderConfig =
  OIDCConfig<any> | OAuth2Config<any> | EmailConfig | CredentialsConfig<any> | WebAuthnConfig

/**
 * What `providers: [...]` accepts: a provider config (usually made by a factory
 * such as `GitHub({ clientId, clientSecret })`) or the factory itself, which is
 * then called with no options (credentials from `AUTH_<ID>_ID`/`_SECRET`).
 *
 * @see [Auth.js: Provider](https://authjs.dev/reference/core/providers#provider)
 */
export type Provider<P extends Profile = any> =
  | ((OIDCConfig<P> | OAuth2Config<P> | EmailConfig | CredentialsConfig<any> | WebAuthnConfig) & {
      options?: any
    })
  | ((...args: any[]) => OAuthConfig<P> | EmailConfig | CredentialsConfig<any> | WebAuthnConfig)

/**
 * The built-in provider factories by id, as Auth.js types them.
 *
 * @see [Auth.js: BuiltInProviders](https://authjs.dev/reference/core/providers#builtinproviders)
 */
export type BuiltInProviders = Record<
  OAuthProviderId,
  (config: Partial<OAuthConfig<any>>) => OAuthConfig<any>
> &
  Record<CredentialsProviderId, typeof CredentialsProvider> &
  Record<EmailProviderId, typeof EmailProvider> &
  Record<WebAuthnProviderType, (config: Partial<WebAuthnConfig>) => WebAuthnConfig>

/**
 * A list of providers: configurations, factories, or what a built-in factory returns.
 *
 * @see [Auth.js: AppProviders](https://authjs.dev/reference/core/providers#appproviders)
 */
export type AppProviders = Array<Provider | ReturnType<BuiltInProviders[keyof BuiltInProviders]>>
