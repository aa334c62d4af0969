import { MissingAuthorize } from "../../errors.js"
import type { CredentialsConfig } from "../../providers/credentials.js"
import type { InternalProvider } from "../../config/providers.js"

export function normalizeCredentialsProvider(
  provider: CredentialsConfig,
): InternalProvider<"credentials"> {
  if (typeof provider.authorize !== "function") {
    throw new MissingAuthorize(`Credentials provider "${provider.id}" needs an authorize function`)
  }
  return { ...provider, credentials: provider.credentials ?? {} } as InternalProvider<"credentials">
}
