/**
 * Sign in with a passkey: a WebAuthn provider with passkey defaults (discoverable
 * credentials, user verification, passkey autofill in the e-mail field).
 *
 * Passkeys are a first-class sign-in method: no experimental flag is needed.
 * An adapter with the authenticator methods is required.
 *
 * @example
 * ```ts
 * import Passkey from "@tessera/core/providers/passkey"
 * import { SqlAdapter } from "@tessera/sql"
 * const config = { adapter: SqlAdapter(db), providers: [Passkey()] }
 * ```
 * @module
 */
import WebAuthn, { type WebAuthnConfig, type WebAuthnUserConfig } from "./webauthn.js"

export type { WebAuthnConfig, WebAuthnUserConfig } from "./webauthn.js"

export type PasskeyProviderType = "Passkey"

export default function Passkey(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  return WebAuthn({ id: "passkey", name: "Passkey", enableConditionalUI: true, ...config })
}
