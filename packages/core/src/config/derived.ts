/**
 * Copies of a configuration that an integration makes (the same settings served at another
 * `basePath`, say) and the app's object they came from. Core resolves each object on its own;
 * what it says about a setting the app made (an `AUTH_URL` path and a `basePath`) is the app's
 * object's. Its warnings are said once per process to the app's logger, whichever copy shows the
 * problem first (`config/warnings-said.ts`).
 * @module
 */
import type { AuthConfig } from "./auth-config.js"

/** The app's object, by each copy made of it (or of one of its copies). */
const origins = new WeakMap<AuthConfig, AuthConfig>()

/**
 * A copy of `config` with `changes`, which core treats as the app's configuration for what it
 * says about the app's own settings (an `AUTH_URL` path beside a `basePath`). Warnings are said
 * once per process to the app's logger however many objects it has. Call it once per copy and
 * reuse the copy: core resolves each object once (its keys derived once). The integrations
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
