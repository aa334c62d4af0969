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

/**
 * Sign in with a passkey: the WebAuthn provider with passkey defaults (`id: "passkey"`,
 * discoverable credentials, user verification, autofill in the e-mail field).
 *
 * @param config Any option of `WebAuthn` to override.
 * @see [Auth.js: Passkey](https://authjs.dev/reference/core/providers/passkey)
 * @see [Web Authentication Level 3 §6.2.2, Credential Storage Modality](https://www.w3.org/TR/webauthn-3/#discoverable-credential) (discoverable credentials)
 */
export default function Passkey(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  return WebAuthn({ id: "passkey", name: "Passkey", enableConditionalUI: true, ...config })
}
