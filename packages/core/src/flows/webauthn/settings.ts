/**
 * What Tessera asks authenticators for, and what it then requires of their
 * responses. Both sides are derived from the same provider options, so an
 * option that relaxes a request (say `userVerification: "preferred"`) relaxes
 * its verification too, instead of failing every response.
 *
 * Defaults are passkey defaults: a discoverable credential (it carries the user,
 * so sign-in needs no user name) and user verification (biometrics or PIN:
 * the passkey is a whole sign-in factor, not a second one).
 * @module
 */
import type { ResolvedWebAuthnProvider } from "../types.js"
import { DEFAULT_WEBAUTHN_TIMEOUT } from "../../providers/webauthn.js"

type UserVerification = "required" | "preferred" | "discouraged"

/** Keys Tessera sets itself; the same keys in provider options are ignored. */
const controlledRegistrationKeys = new Set([
  "rpName",
  "rpID",
  "userName",
  "userID",
  "userDisplayName",
  "challenge",
  "excludeCredentials",
])
const controlledAuthenticationKeys = new Set(["rpID", "challenge", "allowCredentials"])
const controlledVerifyKeys = new Set([
  "response",
  "expectedChallenge",
  "expectedOrigin",
  "expectedRPID",
  "credential",
  "expectedType",
])

function without(
  options: Record<string, unknown> | undefined,
  controlled: Set<string>,
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([key]) => !controlled.has(key)))
}

const uvOf = (value: unknown): UserVerification =>
  value === "preferred" || value === "discouraged" ? value : "required"

/** Options for `generateRegistrationOptions`, minus the per-request values. */
export function registrationDefaults(provider: ResolvedWebAuthnProvider) {
  const extra = without(provider.registrationOptions, controlledRegistrationKeys)
  const selection = (extra.authenticatorSelection ?? {}) as Record<string, unknown>
  return {
    attestationType: "none" as const,
    timeout: Math.min(provider.challengeMaxAge * 1000, DEFAULT_WEBAUTHN_TIMEOUT),
    ...extra,
    // A fresh object each time: the library writes into it.
    authenticatorSelection: {
      residentKey: "required",
      ...selection,
      userVerification: uvOf(selection.userVerification),
    } as {
      residentKey?: "required" | "preferred" | "discouraged"
      userVerification: UserVerification
      authenticatorAttachment?: "platform" | "cross-platform"
    },
  }
}

/** Options for `generateAuthenticationOptions`, minus the per-request values. */
export function authenticationDefaults(provider: ResolvedWebAuthnProvider) {
  const extra = without(provider.authenticationOptions, controlledAuthenticationKeys)
  return {
    timeout: Math.min(provider.challengeMaxAge * 1000, DEFAULT_WEBAUTHN_TIMEOUT),
    ...extra,
    userVerification: uvOf(extra.userVerification),
  }
}

/** Extra options for `verifyRegistrationResponse`. */
export function registrationVerification(provider: ResolvedWebAuthnProvider) {
  const extra = without(provider.verifyRegistrationOptions, controlledVerifyKeys)
  const { authenticatorSelection, supportedAlgorithmIDs } = registrationDefaults(provider) as {
    authenticatorSelection: { userVerification: UserVerification }
    supportedAlgorithmIDs?: number[]
  }
  return {
    requireUserVerification: authenticatorSelection.userVerification === "required",
    ...(supportedAlgorithmIDs ? { supportedAlgorithmIDs } : {}),
    ...extra,
  }
}

/** Extra options for `verifyAuthenticationResponse`. */
export function authenticationVerification(provider: ResolvedWebAuthnProvider) {
  const extra = without(provider.verifyAuthenticationOptions, controlledVerifyKeys)
  return {
    requireUserVerification: authenticationDefaults(provider).userVerification === "required",
    ...extra,
  }
}
