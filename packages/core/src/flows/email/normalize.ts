/**
 * Resolution of e-mail providers: defaults filled in, and configurations that
 * cannot work refused at start rather than on a user's first sign-in.
 * @module
 */
import type { ProviderResolutionContext, ResolvedEmailProvider } from "../types.js"
import {
  InvalidConfiguration,
  InvalidSecret,
  MissingAdapter,
  MissingAdapterMethods,
} from "../../errors.js"
import type { EmailConfig } from "../../providers/email.js"
import { KeyRing } from "../../jwt/keys.js"
import { normalizeEmailAddress } from "./address.js"
import { DEFAULT_SEND_TIMEOUT_MS, isSendTimeout } from "./bounded-send.js"
import { defaultVerificationToken } from "./token.js"

const DAY = 24 * 60 * 60

/**
 * Marks a `sendVerificationRequest` that sends through `server` (nodemailer's),
 * so that a provider using it without a server is refused at start. A mark
 * rather than an import: the e-mail flow must not pull nodemailer's sender
 * into apps whose e-mail providers send otherwise.
 */
export const needsServer: unique symbol = Symbol.for("tessera.needsServer")

/**
 * Marks a `sendVerificationRequest` that cannot send without some provider
 * options (an HTTP mail API's key, Loops' `transactionalId`): those missing are
 * a configuration error at start, naming the option and its variable, rather
 * than a failed sign-in for the first user. Set by the providers' own senders
 * only: an app's own `sendVerificationRequest` needs what it needs.
 */
export const requiredOptions: unique symbol = Symbol.for("tessera.requiredOptions")

/**
 * Methods the flow always calls: tokens, the user the address belongs to, and
 * user creation (an e-mail sign-in signs new addresses up). `updateUser` is
 * needed only to settle an address held unverified by another account, and is
 * asked for then; session methods only with database sessions (checked there).
 */
const REQUIRED = [
  "createVerificationToken",
  "useVerificationToken",
  "getUserByEmail",
  "createUser",
] as const

/** E-mail sign-in stores single-use tokens and users, so it needs an adapter. */
export function normalizeEmailProvider(
  provider: EmailConfig,
  context: ProviderResolutionContext,
): ResolvedEmailProvider {
  const { adapter } = context
  if (!adapter)
    throw new MissingAdapter(`E-mail provider "${provider.id}" needs a database adapter`)
  const missing = REQUIRED.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) {
    throw new MissingAdapterMethods(
      `E-mail provider "${provider.id}" needs adapter methods: ${missing.join(", ")}`,
    )
  }
  if (typeof provider.sendVerificationRequest !== "function") {
    throw new InvalidConfiguration(
      `E-mail provider "${provider.id}" needs a sendVerificationRequest function`,
    )
  }
  const send = provider.sendVerificationRequest as { [needsServer]?: boolean }
  if (send[needsServer] && !provider.server) {
    throw new InvalidConfiguration(
      `E-mail provider "${provider.id}" needs a \`server\` (nodemailer transport) or its own sendVerificationRequest`,
    )
  }
  const required = (provider.sendVerificationRequest as { [requiredOptions]?: string[] })[
    requiredOptions
  ]
  for (const option of required ?? []) {
    const value = (provider as unknown as Record<string, unknown>)[option]
    if (typeof value === "string" && value !== "") continue
    const variable = `AUTH_${provider.id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_KEY`
    throw new InvalidConfiguration(
      `E-mail provider "${provider.id}" needs \`${option}\`${option === "apiKey" ? ` (or ${variable})` : ""}`,
    )
  }
  const maxAge = provider.maxAge ?? DAY
  if (!Number.isFinite(maxAge) || maxAge <= 0) {
    throw new InvalidConfiguration(
      `E-mail provider "${provider.id}": maxAge must be a positive number of seconds`,
    )
  }
  for (const option of ["normalizeIdentifier", "generateVerificationToken"] as const) {
    if (provider[option] !== undefined && typeof provider[option] !== "function") {
      throw new InvalidConfiguration(
        `E-mail provider "${provider.id}": ${option} must be a function`,
      )
    }
  }
  if (
    provider.secret !== undefined &&
    (typeof provider.secret !== "string" || provider.secret.length < 32)
  ) {
    throw new InvalidSecret(
      `E-mail provider "${provider.id}": secret must be 32 or more characters`,
    )
  }
  const sendTimeout = provider.sendTimeout ?? DEFAULT_SEND_TIMEOUT_MS
  if (!isSendTimeout(sendTimeout)) {
    throw new InvalidConfiguration(
      `E-mail provider "${provider.id}": sendTimeout must be a positive number of milliseconds (at most 2^31 - 1)`,
    )
  }
  const method = provider.method ?? "link"
  if (method !== "link" && method !== "code" && method !== "both") {
    throw new InvalidConfiguration(
      `E-mail provider "${provider.id}": method must be "link", "code" or "both"`,
    )
  }
  if (provider.confirmLink !== undefined && typeof provider.confirmLink !== "boolean") {
    throw new InvalidConfiguration(
      `E-mail provider "${provider.id}": confirmLink must be a boolean`,
    )
  }
  return {
    ...provider,
    maxAge,
    sendTimeout,
    method,
    confirmLink: provider.confirmLink ?? false,
    normalizeIdentifier: provider.normalizeIdentifier ?? normalizeEmailAddress,
    generateVerificationToken: provider.generateVerificationToken ?? defaultVerificationToken,
    ...(provider.secret ? { keys: new KeyRing([provider.secret]) } : {}),
  }
}
