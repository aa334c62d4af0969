/**
 * Copies of a configuration that an integration makes (the same settings served at another
 * `basePath`, say) and the app's object they came from. Core resolves each object on its own,
 * but the warnings it says once per configuration belong to the app's object: said once for all
 * its copies, to the app's logger, whichever copy shows the problem first.
 * @module
 */
import type { AuthConfig } from "./auth-config.js"
import type { WarningCode } from "../types.js"

/** The app's object, by each copy made of it (or of one of its copies). */
const origins = new WeakMap<AuthConfig, AuthConfig>()

/** The once-per-configuration warnings already said, by the app's object. */
const saidBy = new WeakMap<AuthConfig, Set<WarningCode>>()

/**
 * A copy of `config` with `changes`, which core treats as the same configuration for the
 * warnings it says once per configuration (about its settings, or the first time a request
 * shows a problem): the app hears each once, however many copies an integration serves. Call it
 * once per copy and reuse the copy: core resolves each object once. The integrations
 * (`@tessera/express`, `@tessera/hono`, `@tessera/sveltekit`) do this for you.
 *
 * @param config The app's configuration (or a copy made with this function).
 * @param changes The settings that differ in the copy, e.g. `{ basePath: "/api/auth" }`.
 * @returns A new object: `{ ...config, ...changes }`.
 * @see [docs/configuration.md: copies of a configuration](https://github.com/tessera-auth/tessera/blob/main/docs/configuration.md#copies-of-a-configuration-integrations)
 */
export function deriveConfig(config: AuthConfig, changes: Partial<AuthConfig>): AuthConfig {
  const copy = { ...config, ...changes }
  origins.set(copy, originOf(config))
  return copy
}

/** The app's object `config` was copied from, or `config` itself. */
export function originOf(config: AuthConfig): AuthConfig {
  return origins.get(config) ?? config
}

/**
 * The set of once-per-configuration warnings already said for `config` and every copy of the
 * same app's object: one set, so a copy does not say again what another said.
 */
export function warningsSaid(config: AuthConfig): Set<WarningCode> {
  const origin = originOf(config)
  let said = saidBy.get(origin)
  if (!said) saidBy.set(origin, (said = new Set()))
  return said
}
