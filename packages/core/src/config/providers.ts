/**
 * Turns the `providers` option into resolved providers, each bound to its
 * flow: factories are called, user options merged over the factory's
 * defaults, the flows of the types present are loaded, and each flow's
 * normalizer fills defaults and rejects what cannot work.
 * @module
 */
import { DuplicateProviderId, InvalidConfiguration, InvalidProviderType } from "../errors.js"
import { flowLoaderOf, isProviderType, loadFlows } from "../flows/index.js"
import {
  bindFlow,
  type ProviderFlow,
  type ProviderResolutionContext,
  type ResolvedProvider,
} from "../flows/types.js"
import type { Provider, ProviderConfig } from "../providers/index.js"
import { merge } from "./merge.js"

export interface ResolvedProviders {
  providers: ResolvedProvider[]
  /** Each provider's flow, by provider id. */
  flows: Map<string, ProviderFlow>
}

/** The provider a `providers` entry describes: a config, or a factory called with no options. */
function made(entry: Provider, index: number, seen: Set<string>): ProviderConfig {
  const value = typeof entry === "function" ? (entry as () => ProviderConfig)() : entry
  const { options, ...defaults } = value as ProviderConfig & { options?: object }
  const provider = merge(defaults, options) as ProviderConfig
  if (typeof provider.id !== "string" || !/^[A-Za-z0-9_-]+$/.test(provider.id)) {
    throw new InvalidProviderType(
      `Provider #${index + 1} has no valid id (letters, digits, "-" and "_")`,
    )
  }
  if (seen.has(provider.id)) {
    throw new DuplicateProviderId(`Two providers have the id "${provider.id}"; ids must be unique`)
  }
  seen.add(provider.id)
  if (!isProviderType(provider.type)) {
    throw new InvalidProviderType(
      `Provider "${provider.id}" has unknown type "${String(provider.type)}"`,
    )
  }
  return { ...provider, name: provider.name ?? provider.id }
}

export async function resolveProviders(
  list: Provider[],
  context: ProviderResolutionContext,
): Promise<ResolvedProviders> {
  const seen = new Set<string>()
  const configs = list.map((entry, index) => made(entry, index, seen))
  const loaders = configs.map((config) => {
    const load = flowLoaderOf(config)
    if (!load) {
      throw new InvalidConfiguration(
        `Provider "${config.id}" has type "${config.type}" but was not made by its factory: ` +
          `use WebAuthn() from @tessera/core/providers/webauthn or Passkey() from ` +
          `@tessera/core/providers/passkey, which bring the passkey flow with them`,
      )
    }
    return load
  })
  const byLoader = await loadFlows(loaders)
  const flows = new Map<string, ProviderFlow>()
  const providers = configs.map((config, i) => {
    const flow = byLoader.get(loaders[i]!)!
    const provider = flow.normalize(config, context)
    flows.set(provider.id, bindFlow(flow, provider))
    return provider
  })
  return { providers, flows }
}
