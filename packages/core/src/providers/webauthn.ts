/**
 * Configuration type of WebAuthn providers (`type: "webauthn"`, passkeys).
 * The flow lives in `src/webauthn/`.
 * @module
 */
import type { Awaitable } from "../types.js"
import type { CredentialInput } from "./credentials.js"
import type { CommonProviderOptions } from "./index.js"

/** The relying party: the site the credential is bound to. Defaults come from the request URL. */
export interface RelayingParty {
  id: string
  name: string
  /** One origin, or several allowed origins. */
  origin: string | string[]
}

export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  /** Overrides of the relying party derived from the request URL. (Auth.js spelling.) */
  relayingParty?: Partial<RelayingParty>
  /** Offer passkeys in the browser's autofill for the e-mail field on the built-in page. */
  enableConditionalUI?: boolean
  /** Fields asked for when registering a new passkey. Default: e-mail. */
  formFields?: Record<string, CredentialInput>
  /** Options passed through to @simplewebauthn/server. */
  authenticationOptions?: Record<string, unknown>
  registrationOptions?: Record<string, unknown>
  verifyAuthenticationOptions?: Record<string, unknown>
  verifyRegistrationOptions?: Record<string, unknown>
  /** Seconds the challenge cookie lives. Default 300. */
  challengeMaxAge?: number
  getUserInfo?: (...args: any[]) => Awaitable<any>
  options?: Partial<Omit<WebAuthnConfig, "options" | "type">>
  [key: string]: unknown
}
