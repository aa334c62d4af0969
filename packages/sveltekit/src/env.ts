/**
 * The two SvelteKit runtime values the integration reads: `$env/dynamic/private`
 * (secrets, `AUTH_URL`, provider credentials) and `$app/environment`'s `building`.
 *
 * Both are read lazily, inside the request path, never when this module is
 * imported: during `vite build` and prerendering there is no request-time
 * environment (SvelteKit refuses `$env/dynamic/*` there), and serverless
 * adapters fill the environment only once the first request arrives.
 *
 * The source is replaceable so the integration can be tested, or hosted, without
 * the SvelteKit runtime: see {@link setKitRuntime}.
 * @module
 */

/**
 * Environment variables, as `$env/dynamic/private` exposes them.
 *
 * @see [SvelteKit: $env/dynamic/private](https://svelte.dev/docs/kit/$env-dynamic-private)
 */
export type Env = Record<string, string | undefined>

/**
 * What the integration reads from SvelteKit at run time: whether it is building, and the
 * environment.
 *
 * @see [SvelteKit: $app/environment](https://svelte.dev/docs/kit/$app-environment)
 */
export interface KitRuntime {
  /** True while SvelteKit builds or prerenders: nothing request-time runs then. */
  readonly building: boolean
  /** `$env/dynamic/private`: `AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`, ... */
  readonly env: Env
  /**
   * `$app/paths`' `base` (the app's `paths.base`, `""` when none): the auth routes default to
   * `<base>/auth`, as in Auth.js, since SvelteKit's URLs all start with it. Optional for hosts
   * outside SvelteKit.
   */
  readonly base?: string
}

/**
 * Where {@link KitRuntime} comes from; see {@link setKitRuntime}.
 *
 * @see {@link setKitRuntime}
 */
export type KitRuntimeSource = () => KitRuntime | Promise<KitRuntime>

type KitModules = [{ env: Env }, { building: boolean }, { base: string }]
let modules: Promise<KitModules> | undefined

/**
 * Reads the values from SvelteKit's virtual modules. The module namespaces are
 * kept, not the values: SvelteKit replaces the `env` binding when the server is
 * initialised, and `building` changes while it prerenders.
 */
/** Set once the modules have loaded, so later requests read them without awaiting. */
let loaded: KitModules | undefined

async function fromSvelteKit(): Promise<KitRuntime> {
  modules ??= Promise.all([
    import("$env/dynamic/private"),
    import("$app/environment"),
    // Optional, unlike the two above: hosts that stand in for SvelteKit's modules may not have it.
    import("$app/paths").catch(() => ({ base: "" })),
  ]) as Promise<KitModules>
  loaded = await modules
  return runtimeOf(loaded)
}

// `env` is read from the module each time: SvelteKit sets it when the server starts.
const runtimeOf = ([privateEnv, app, paths]: KitModules): KitRuntime => ({
  building: app.building,
  env: privateEnv.env,
  base: paths.base,
})

let source: KitRuntimeSource = fromSvelteKit

/** The current runtime values. Called once per request (or form action). */
export function kitRuntime(): KitRuntime | Promise<KitRuntime> {
  // The hot path: after the first request this answers synchronously (no promise, no await).
  if (source === fromSvelteKit && loaded) return runtimeOf(loaded)
  return source()
}

/**
 * Replaces where the runtime values come from, e.g. `setKitRuntime(() => ({ building: false, env: process.env }))`
 * in tests or outside SvelteKit. Call it with no argument to go back to SvelteKit's modules.
 *
 * @param next Returns the runtime values; none: SvelteKit's own modules.
 * @see [SvelteKit: $env/dynamic/private](https://svelte.dev/docs/kit/$env-dynamic-private)
 */
export function setKitRuntime(next?: KitRuntimeSource): void {
  source = next ?? fromSvelteKit
}
