import { MissingAuthorize } from "../../errors.js"
import type { CredentialsConfig } from "../../providers/credentials.js"
import type { ResolvedCredentialsProvider } from "../types.js"

export function normalizeCredentialsProvider(
  provider: CredentialsConfig,
): ResolvedCredentialsProvider {
  if (typeof provider.authorize !== "function") {
    throw new MissingAuthorize(`Credentials provider "${provider.id}" needs an authorize function`)
  }
  return { ...provider, credentials: provider.credentials ?? {} } as ResolvedCredentialsProvider
}
