/**
 * The resolved configuration for server-side helpers outside `Auth()`
 * (`getSession`, `@tessera/core/sessions`, `getAccessToken`): the same cached
 * resolution, and the configuration error thrown rather than answered.
 * @module
 */
import type { AuthConfig } from "./auth-config.js"
import { resolveConfig, type ResolvedConfig } from "./resolve.js"

export async function resolvedOrThrow(config: AuthConfig): Promise<ResolvedConfig> {
  const pending = resolveConfig(config)
  const resolution = pending instanceof Promise ? await pending : pending
  // Logged once, when the configuration was resolved.
  if (!resolution.ok) throw resolution.error
  return resolution.config
}
