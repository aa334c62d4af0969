import { MissingAdapter, MissingAdapterMethods } from "../errors.js"
import type { InternalProvider, ProviderResolutionContext } from "../config/providers.js"
import type { EmailConfig } from "../providers/email.js"

const DAY = 24 * 60 * 60

/** E-mail sign-in stores single-use tokens and users, so it needs an adapter. */
export function normalizeEmailProvider(provider: EmailConfig, context: ProviderResolutionContext): InternalProvider<"email"> {
  const { adapter } = context
  if (!adapter) throw new MissingAdapter(`E-mail provider "${provider.id}" needs a database adapter`)
  const required = ["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "getUser"] as const
  const missing = required.filter((method) => typeof adapter[method] !== "function")
  if (missing.length) {
    throw new MissingAdapterMethods(`E-mail provider "${provider.id}" needs adapter methods: ${missing.join(", ")}`)
  }
  return { ...provider, maxAge: provider.maxAge ?? DAY } as InternalProvider<"email">
}
