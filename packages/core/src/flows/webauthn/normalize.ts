/**
 * Checks a WebAuthn provider once, when the configuration is resolved, so that
 * a setup that cannot work fails at start with a clear error instead of on the
 * first passkey a user tries.
 * @module
 */
import type {
  ConfiguredRelyingParty,
  ProviderResolutionContext,
  ResolvedWebAuthnProvider,
} from "../types.js"
import {
  InvalidConfiguration,
  DuplicateConditionalUI,
  MissingAdapter,
  MissingAdapterMethods,
  MissingWebAuthnAutocomplete,
} from "../../errors.js"
import {
  defaultFormFields,
  type RelayingParty,
  type WebAuthnConfig,
} from "../../providers/webauthn.js"

/**
 * The adapter methods the flow calls. Verification tokens record challenges (single use).
 * Optional, used when present: `swapAuthenticatorCounter` (a Tessera extension), the
 * compare-and-set that stores a sign-in's counter instead of `updateAuthenticatorCounter`, so
 * that a cloned authenticator racing the original cannot get both in (see `counter.ts`).
 */
export const requiredAdapterMethods = [
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
  "getUserByEmail",
  "getUser",
  // A passkey signs in through its account with the provider, as in Auth.js (which requires it too).
  "getAccount",
  "createUser",
  "linkAccount",
  "createVerificationToken",
] as const

export const DEFAULT_CHALLENGE_MAX_AGE = 300

const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/

function checkOrigin(providerId: string, origin: unknown): string {
  let url: URL | undefined
  try {
    url = typeof origin === "string" ? new URL(origin) : undefined
  } catch {
    url = undefined
  }
  // An origin is scheme://host[:port] and nothing else: a path would never match the browser's value.
  if (
    !url ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.origin !== String(origin).replace(/\/$/, "")
  ) {
    throw new InvalidConfiguration(
      `WebAuthn provider "${providerId}": relayingParty.origin must be origins like "https://example.com"`,
    )
  }
  return url.origin
}

/**
 * Checks relying-party values (the configured overrides at start, or what
 * `getRelayingParty` answers on a request) and lists the origins.
 */
export function checkRelyingParty(
  provider: Pick<WebAuthnConfig, "id">,
  given: Partial<RelayingParty>,
): ConfiguredRelyingParty {
  const out: ConfiguredRelyingParty = {}
  if (given.id !== undefined) {
    if (typeof given.id !== "string" || !DOMAIN.test(given.id.toLowerCase())) {
      throw new InvalidConfiguration(
        `WebAuthn provider "${provider.id}": relayingParty.id must be a domain name such as "example.com" (no scheme or port)`,
      )
    }
    out.id = given.id.toLowerCase()
  }
  if (given.name !== undefined) {
    if (typeof given.name !== "string" || given.name.trim() === "") {
      throw new InvalidConfiguration(
        `WebAuthn provider "${provider.id}": relayingParty.name must be a non-empty string`,
      )
    }
    out.name = given.name
  }
  if (given.origin !== undefined) {
    const list = Array.isArray(given.origin) ? given.origin : [given.origin]
    if (list.length === 0)
      throw new InvalidConfiguration(
        `WebAuthn provider "${provider.id}": relayingParty.origin is an empty list`,
      )
    out.origin = list.map((origin) => checkOrigin(provider.id, origin))
  }
  if (out.id && out.origin) {
    // The browser only lets a page use an rp id that is its host or a parent domain of it.
    for (const origin of out.origin) {
      const host = new URL(origin).hostname
      if (host !== out.id && !host.endsWith(`.${out.id}`)) {
        throw new InvalidConfiguration(
          `WebAuthn provider "${provider.id}": origin ${origin} cannot use relying party id "${out.id}"`,
        )
      }
    }
  }
  return out
}

function checkAdapter(provider: WebAuthnConfig, context: ProviderResolutionContext): void {
  const { adapter } = context
  if (!adapter)
    throw new MissingAdapter(`WebAuthn provider "${provider.id}" needs a database adapter`)
  const missing = requiredAdapterMethods.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) {
    throw new MissingAdapterMethods(
      `WebAuthn provider "${provider.id}" needs adapter methods: ${missing.join(", ")}`,
    )
  }
}

function checkConditionalUI(
  provider: WebAuthnConfig,
  formFields: NonNullable<WebAuthnConfig["formFields"]>,
  context: ProviderResolutionContext,
): void {
  const owner = context.conditionalUIOwner
  if (owner !== undefined) {
    throw new DuplicateConditionalUI(
      `Providers "${owner}" and "${provider.id}" both enable conditional UI; only one may`,
    )
  }
  context.conditionalUIOwner = provider.id
  const hasField = Object.values(formFields).some(
    (field) =>
      typeof field?.autocomplete === "string" &&
      field.autocomplete.split(/\s+/).includes("webauthn"),
  )
  if (!hasField) {
    throw new MissingWebAuthnAutocomplete(
      `WebAuthn provider "${provider.id}" enables conditional UI but no form field has autocomplete "webauthn"`,
    )
  }
}

/** Passkeys are stored through the adapter, so it must have the authenticator methods. */
export function normalizeWebAuthnProvider(
  provider: WebAuthnConfig,
  context: ProviderResolutionContext,
): ResolvedWebAuthnProvider {
  checkAdapter(provider, context)
  const relayingParty = checkRelyingParty(provider, {
    ...provider.relayingParty,
    ...provider.relyingParty,
  })
  if (provider.getRelayingParty !== undefined && typeof provider.getRelayingParty !== "function") {
    throw new InvalidConfiguration(
      `WebAuthn provider "${provider.id}": getRelayingParty must be a function`,
    )
  }
  const challengeMaxAge = provider.challengeMaxAge ?? DEFAULT_CHALLENGE_MAX_AGE
  if (!Number.isInteger(challengeMaxAge) || challengeMaxAge < 10 || challengeMaxAge > 3600) {
    throw new InvalidConfiguration(
      `WebAuthn provider "${provider.id}": challengeMaxAge must be a whole number of seconds between 10 and 3600`,
    )
  }
  const formFields = provider.formFields ?? defaultFormFields
  const enableConditionalUI = provider.enableConditionalUI === true
  if (enableConditionalUI) checkConditionalUI(provider, formFields, context)
  return {
    ...provider,
    relayingParty,
    challengeMaxAge,
    formFields,
    enableConditionalUI,
  }
}
