/**
 * WebAuthn providers (`type: "webauthn"`): sign-in with passkeys and security
 * keys. The flow lives in `src/flows/webauthn/`; `Passkey` (`./passkey`) is this
 * provider with passkey-friendly defaults. The factory brings the flow with it
 * (`flows/attached.ts`): a provider object written by hand with
 * `type: "webauthn"` is refused when the configuration is resolved.
 *
 * Needs an adapter with the authenticator methods (`getAuthenticator`,
 * `createAuthenticator`, `listAuthenticatorsByUserId`, `updateAuthenticatorCounter`)
 * and verification tokens (challenges are recorded there so each is used once).
 * With `swapAuthenticatorCounter` (optional, a Tessera extension) the counter is stored
 * with a compare-and-set: of a cloned authenticator and the original signing in at once,
 * exactly one gets in.
 *
 * @example
 * ```ts
 * import WebAuthn from "@tessera/core/providers/webauthn"
 * WebAuthn({ relayingParty: { id: "example.com", name: "Example", origin: "https://example.com" } })
 * ```
 * @module
 */
import { withFlow, type AnyFlow } from "../flows/attached.js"
import type { Adapter } from "../adapters.js"
import type { Awaitable, RequestInternal, User } from "../types.js"
import type { CredentialInput } from "./credentials.js"
import type { CommonProviderOptions } from "./index.js"

/**
 * The hash of the passkey script the built-in sign-in page inlines, for a
 * Content-Security-Policy: `script-src '<hash>'`.
 */
export { webauthnClientScriptHash } from "../flows/webauthn/client-script.generated.js"

/**
 * The relying party: the site the credential is bound to. Defaults come from the request URL.
 *
 * @see [Web Authentication Level 3 §5.4.2, Relying Party Parameters](https://www.w3.org/TR/webauthn-3/#dictdef-publickeycredentialrpentity)
 */
export interface RelayingParty {
  /** A registrable domain, e.g. `example.com`. Default: the request's host name. */
  id: string
  /** Shown by the browser and the authenticator. Default: the app's host, with its port. */
  name: string
  /** One origin, or several allowed origins (`https://example.com`). Default: the request's origin. */
  origin: string | string[]
}

/**
 * What `getRelayingParty` receives first: the provider and the app's URL (origin and basePath).
 *
 * @see [Web Authentication Level 3 §5.4.2, Relying Party Parameters](https://www.w3.org/TR/webauthn-3/#dictdef-publickeycredentialrpentity)
 */
export interface WebAuthnRelyingPartyOptions {
  provider: WebAuthnConfig
  /** The auth URL of the request, on the app's trusted origin, e.g. `https://example.com/auth`. */
  url: URL
}

/**
 * Auth.js spells it "relaying"; the correct spelling is accepted too.
 *
 * @see [Web Authentication Level 3 §5.4.2, Relying Party Parameters](https://www.w3.org/TR/webauthn-3/#dictdef-publickeycredentialrpentity)
 */
export type RelyingParty = RelayingParty

/**
 * Who wants to register or sign in, as read from the `webauthn-options` request.
 *
 * @see [Web Authentication Level 3 §5.4.3, User Account Parameters](https://www.w3.org/TR/webauthn-3/#dictdef-publickeycredentialuserentity)
 */
export interface WebAuthnUserInfo {
  /** `email` is required to register a new user; `name` is used as display name. */
  user: Pick<User, "email" | "name">
  /** True if a user with this identity exists (then the automatic action is `authenticate`). */
  exists: boolean
}

/**
 * What `getUserInfo` receives first, as in Auth.js (a part of its internal options): the
 * provider, the database adapter, and the URL the auth routes are served at. The provider's own
 * fields can be read on it too (`options.id`): Tessera 0.1 passed the provider itself.
 *
 * @see [Auth.js: WebAuthn provider, getUserInfo](https://authjs.dev/reference/core/providers/webauthn)
 */
export type WebAuthnGetUserInfoOptions = WebAuthnConfig & {
  provider: WebAuthnConfig
  adapter: Adapter | undefined
  url: URL
}

/**
 * A WebAuthn provider's `getUserInfo(options, request)`, Auth.js's signature: who is asking,
 * read from the `webauthn-options` request, or `null` when it names nobody.
 *
 * @see [Auth.js: WebAuthn provider, GetUserInfo](https://authjs.dev/reference/core/providers/webauthn)
 */
export type GetUserInfo = (
  options: WebAuthnGetUserInfoOptions,
  request: RequestInternal,
) => Awaitable<WebAuthnUserInfo | null>

/**
 * The passkey (WebAuthn) provider, as resolved from `WebAuthn()`/`Passkey()`.
 *
 * @see [Auth.js: WebAuthn provider](https://authjs.dev/reference/core/providers/webauthn)
 * @see [Web Authentication Level 3](https://www.w3.org/TR/webauthn-3/)
 */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  /** Overrides of the relying party derived from the request URL. (Auth.js spelling.) */
  relayingParty?: Partial<RelayingParty>
  /** Same as `relayingParty`. */
  relyingParty?: Partial<RelayingParty>
  /**
   * The relying party of one request, for apps that serve several sites (as in
   * Auth.js). What it answers is checked on each call, like `relayingParty`;
   * missing fields take the defaults. Default: `relayingParty`, else the app's
   * origin (id: its host name, name: its host with the port, origin: itself).
   */
  getRelayingParty?: (
    options: WebAuthnRelyingPartyOptions,
    request: RequestInternal,
  ) => Partial<RelayingParty>
  /**
   * Offer passkeys in the browser's autofill for the e-mail field on the
   * built-in page. At most one provider may turn it on. Default: `true`, as
   * in Auth.js (two passkey providers: turn it off on one).
   */
  enableConditionalUI?: boolean
  /**
   * Fields of the passkey form on the built-in page, sent as query parameters
   * to `webauthn-options`. `email` identifies a new user, `name` becomes the
   * display name. Default: an e-mail field with `autocomplete="username webauthn"`.
   */
  formFields?: Record<string, CredentialInput>
  /** Extra options for `generateAuthenticationOptions` of @simplewebauthn/server (e.g. `userVerification`, `timeout`). */
  authenticationOptions?: Record<string, unknown>
  /** Extra options for `generateRegistrationOptions` (e.g. `authenticatorSelection`, `attestationType`). */
  registrationOptions?: Record<string, unknown>
  /** Extra options for `verifyAuthenticationResponse` (e.g. `requireUserVerification`). */
  verifyAuthenticationOptions?: Record<string, unknown>
  /** Extra options for `verifyRegistrationResponse`. */
  verifyRegistrationOptions?: Record<string, unknown>
  /** Seconds a challenge stays valid (and its cookie lives). Default 300. */
  challengeMaxAge?: number
  /**
   * Reads who is asking from the `webauthn-options` request:
   * `getUserInfo({ provider, adapter, url }, request)`, as in Auth.js. Default: `email`
   * (and `name`) from the query, with `exists: false` (whether an account uses the address
   * is not looked up: the answer must not tell). Return `null` when the request names nobody.
   */
  getUserInfo?: GetUserInfo
  options?: Partial<Omit<WebAuthnConfig, "options" | "type">>
  [key: string]: unknown
}

/**
 * The `type` Auth.js gives the WebAuthn provider's module (kept for type compatibility).
 *
 * @see [Auth.js: WebAuthn provider](https://authjs.dev/reference/core/providers/webauthn)
 */
export type WebAuthnProviderType = "WebAuthn"

/**
 * What `WebAuthn(options)` takes: every field of {@link WebAuthnConfig} but `type`, all optional.
 *
 * @see [Auth.js: WebAuthn provider](https://authjs.dev/reference/core/providers/webauthn)
 */
export interface WebAuthnUserConfig extends Partial<Omit<WebAuthnConfig, "type" | "options">> {}

/**
 * The @simplewebauthn/browser release the built-in sign-in page carries, as Auth.js names it
 * (there: the version its page loads from unpkg). Tessera inlines this bundled copy in the page
 * (no third-party script), so the provider's `simpleWebAuthnBrowserVersion` option has no effect.
 *
 * @see [Auth.js: WebAuthn provider](https://authjs.dev/reference/core/providers/webauthn)
 */
export const DEFAULT_SIMPLEWEBAUTHN_BROWSER_VERSION: `v${number}.${number}.${number}` = "v14.0.0"

/**
 * How long a passkey ceremony may take by default, in milliseconds (5 minutes, as in Auth.js):
 * the default `challengeMaxAge` (300 s) gives the browser this `timeout`.
 *
 * @see [Auth.js: WebAuthn provider](https://authjs.dev/reference/core/providers/webauthn)
 */
export const DEFAULT_WEBAUTHN_TIMEOUT = 5 * 60 * 1000

/**
 * The default passkey form: one e-mail field, offered for passkey autofill.
 *
 * @see [HTML: autofill, `webauthn` token](https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#attr-fe-autocomplete-webauthn)
 */
export const defaultFormFields: Record<string, CredentialInput> = {
  email: {
    label: "Email",
    type: "email",
    placeholder: "email@example.com",
    autocomplete: "username webauthn",
  },
}

/**
 * A WebAuthn provider (security keys and passkeys). Registration and sign-in
 * are started by the browser: see `webauthn-options` in the docs.
 *
 * @param config The relying party (`relyingParty`: `id`, `name`, `origin`), the form's fields, and
 *   `enableConditionalUI` for passkey autofill.
 * @see [Auth.js: WebAuthn](https://authjs.dev/reference/core/providers/webauthn)
 * @see [Web Authentication Level 3 §7, Relying Party Operations](https://www.w3.org/TR/webauthn-3/#sctn-rp-operations)
 */
export default function WebAuthn(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  return withFlow<WebAuthnConfig>(
    {
      id: "webauthn",
      name: "WebAuthn",
      type: "webauthn",
      enableConditionalUI: true,
      formFields: defaultFormFields,
      challengeMaxAge: 300,
      ...config,
    },
    loadWebAuthnFlow,
  )
}

/**
 * The passkey flow, loaded when a configuration with this provider is resolved.
 * Only this module refers to it, so apps without a passkey provider never load
 * (or bundle) @simplewebauthn/server.
 */
function loadWebAuthnFlow(): Promise<AnyFlow> {
  return import("../flows/webauthn/index.js").then((m) => m.webauthnFlow as AnyFlow)
}
