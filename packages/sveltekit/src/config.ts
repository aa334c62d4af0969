/**
 * The configuration as each part of the integration needs it. Everything here
 * is derived once per configuration object and cached by identity, so core's
 * own cache (it validates a configuration once per object) keeps working:
 * nothing here builds a fresh object per request.
 * @module
 */
import { deriveConfig, raw, setEnvDefaults, skipCSRFCheck, type AuthConfig } from "@tessera/core"
import type { ProviderType } from "@tessera/core/types"
import type { Env } from "./env.js"
import type { SvelteKitAuthConfig } from "./types.js"

/**
 * `config` with the environment's defaults, filled in place (as Auth.js does).
 * Also: adapter-node's `ORIGIN` pins `event.url`; it is then the canonical
 * origin core builds every URL on, unless `url`/`origin`/`AUTH_URL` say otherwise.
 */
export function withEnv(env: Env, config: SvelteKitAuthConfig, base = ""): AuthConfig {
  const filled = setEnvDefaults(env, config)
  // SvelteKit's URLs all start with `paths.base`: with no `basePath` (nor a path in `AUTH_URL`
  // or `url`, which setEnvDefaults turned into one), the routes are at `<base>/auth`, where
  // Auth.js puts them and where its client and an app's links look for them.
  if (base && filled.basePath === undefined) filled.basePath = `${base}/auth`
  if (env.ORIGIN && filled.url === undefined && filled.origin === undefined)
    filled.origin = env.ORIGIN
  return filled
}

type ActionConfig = AuthConfig & { raw: typeof raw; skipCSRFCheck: typeof skipCSRFCheck }
const actionConfigs = new WeakMap<AuthConfig, ActionConfig>()

/**
 * The configuration form actions call `Auth()` with: the internal result instead
 * of a `Response`, and no CSRF token check, because SvelteKit has already refused
 * form posts from other origins before any action runs. `handle` never uses it.
 */
export function actionConfig(config: AuthConfig): ActionConfig {
  let derived = actionConfigs.get(config)
  if (!derived) {
    // Shares the app's once-per-configuration warnings: the hook's object and this say each once.
    derived = deriveConfig(config, { raw, skipCSRFCheck })
    actionConfigs.set(config, derived)
  }
  return derived
}

/** Where the auth actions are mounted, as core resolves it (default `/auth`, no trailing slash). */
export function basePathOf(config: Pick<AuthConfig, "basePath">): string {
  return (config.basePath ?? "/auth").replace(/\/+$/, "")
}

export interface ProviderSummary {
  id: string
  type: ProviderType
}

const providerIndexes = new WeakMap<AuthConfig, Map<string, ProviderSummary>>()

/** The id and type of a configured provider, or `undefined` when none has that id. */
export function findProvider(config: AuthConfig, id: string): ProviderSummary | undefined {
  let index = providerIndexes.get(config)
  if (!index) {
    index = new Map()
    for (const entry of config.providers ?? []) {
      const summary = summarize(entry)
      if (summary && !index.has(summary.id)) index.set(summary.id, summary)
    }
    providerIndexes.set(config, index)
  }
  return index.get(id)
}

function summarize(entry: AuthConfig["providers"][number]): ProviderSummary | undefined {
  let provider: unknown = entry
  if (typeof entry === "function") {
    try {
      provider = (entry as () => unknown)()
    } catch {
      return undefined
    }
  }
  if (!provider || typeof provider !== "object") return undefined
  const p = provider as { id?: unknown; type?: unknown; options?: { id?: unknown } }
  const id = p.options?.id ?? p.id
  if (typeof id !== "string" || typeof p.type !== "string") return undefined
  return { id, type: p.type as ProviderType }
}
