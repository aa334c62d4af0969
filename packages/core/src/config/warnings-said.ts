/**
 * The warnings said so far, once per process per logger they go to, as Auth.js says its
 * warnings once per process. Not per configuration object: an app that builds its
 * configuration per request (`initAuthConfig((c) => ({ ... }))`, SvelteKit's lazy form, an
 * Express middleware) hands core a new object every time, and would hear every warning on
 * every request. Keyed by the logger they go to (the app's `logger.warn` function, or the
 * console), so another app in the process with a logger of its own (a test's) still hears
 * them; each set is bounded by the fixed set of codes, times the providers for a provider's.
 * @module
 */
import type { LoggerInstance, WarningCode } from "../types.js"

/** The key of the console, where warnings go when the app gives no `logger.warn`. */
const CONSOLE = {}

/** The warnings said, by the logger's `warn` function (gone with it) or `CONSOLE`. */
const saidTo = new WeakMap<object, Set<string>>()

/**
 * The set of warnings already said to the logger `given` names (the configuration's `logger`
 * option): `code`, or `code` and the provider's id for a warning about a provider.
 */
export function warningsSaid(given: Partial<LoggerInstance> | undefined): Set<string> {
  const warn: unknown = given?.warn
  const key = typeof warn === "function" ? warn : CONSOLE
  let said = saidTo.get(key)
  if (!said) saidTo.set(key, (said = new Set()))
  return said
}

/**
 * Says `code` through `logger` unless `said` holds it already; `about` names the provider a
 * provider's warning is about (said once per provider).
 */
export function sayOnce(
  logger: LoggerInstance,
  said: Set<string>,
  code: WarningCode,
  about?: string,
): void {
  const key = about === undefined ? code : `${code}\0${about}`
  if (said.has(key)) return
  said.add(key)
  logger.warn(code)
}
