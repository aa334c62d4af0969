import { MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { InternalProvider, ProviderResolutionContext } from "../config/providers.js"
import type { WebAuthnConfig } from "../providers/webauthn.js"

/** Passkeys are stored through the adapter, so it must have the authenticator methods. */
export function normalizeWebAuthnProvider(provider: WebAuthnConfig, context: ProviderResolutionContext): InternalProvider<"webauthn"> {
  const { adapter } = context
  if (!adapter) throw new MissingAdapter(`WebAuthn provider "${provider.id}" needs a database adapter`)
  const required = [
    "getAuthenticator",
    "createAuthenticator",
    "listAuthenticatorsByUserId",
    "updateAuthenticatorCounter",
    "getUserByEmail",
    "getUser",
    "createUser",
  ] as const
  const missing = required.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) {
    throw new MissingAdapterMethods(`WebAuthn provider "${provider.id}" needs adapter methods: ${missing.join(", ")}`)
  }
  return provider as InternalProvider<"webauthn">
}
