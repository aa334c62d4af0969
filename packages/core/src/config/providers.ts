/**
 * Turns the `providers` option into validated internal providers: factories are
 * called, user options merged over the factory's defaults, and each type's own
 * normalizer fills defaults and rejects what cannot work.
 * @module
 */
import { DuplicateProviderId, InvalidProviderType } from "../errors.js"
import type { Adapter } from "../adapters.js"
import type { Provider, ProviderConfig, ProviderType } from "../providers/index.js"
import { normalizeCredentialsProvider } from "../flows/credentials/normalize.js"
import { normalizeEmailProvider } from "../flows/email/normalize.js"
import { normalizeOAuthProvider } from "../flows/oauth/normalize.js"
import { normalizeWebAuthnProvider } from "../flows/webauthn/normalize.js"
import { merge } from "./merge.js"
import type { LoggerInstance } from "../types.js"

/** What a provider normalizer may consult: the rest of the configuration, already validated. */
export interface ProviderResolutionContext {
  adapter: Adapter | undefined
  logger: LoggerInstance
  redirectProxyUrl: string | undefined
  sessionStrategy: "jwt" | "database"
}

export type InternalProvider<T extends ProviderType = ProviderType> = Extract<
  ProviderConfig,
  { type: T }
> & {
  id: string
  name: string
  type: T
}

const normalizers: {
  [T in ProviderType]: (provider: any, context: ProviderResolutionContext) => InternalProvider<T>
} = {
  oauth: normalizeOAuthProvider as any,
  oidc: normalizeOAuthProvider as any,
  email: normalizeEmailProvider as any,
  credentials: normalizeCredentialsProvider as any,
  webauthn: normalizeWebAuthnProvider as any,
}

export function resolveProviders(
  providers: Provider[],
  context: ProviderResolutionContext,
): InternalProvider[] {
  const seen = new Set<string>()
  return providers.map((entry, index) => {
    const made =
      typeof entry === "function" ? (entry as () => ProviderConfig & { options?: object })() : entry
    const { options, ...defaults } = made as ProviderConfig & { options?: object }
    const provider = merge(defaults, options) as ProviderConfig
    if (typeof provider.id !== "string" || !/^[A-Za-z0-9_-]+$/.test(provider.id)) {
      throw new InvalidProviderType(
        `Provider #${index + 1} has no valid id (letters, digits, "-" and "_")`,
      )
    }
    if (seen.has(provider.id))
      throw new DuplicateProviderId(
        `Two providers have the id "${provider.id}"; ids must be unique`,
      )
    seen.add(provider.id)
    const normalize = normalizers[provider.type as ProviderType]
    if (!normalize)
      throw new InvalidProviderType(
        `Provider "${provider.id}" has unknown type "${String(provider.type)}"`,
      )
    return normalize({ ...provider, name: provider.name ?? provider.id }, context)
  })
}
