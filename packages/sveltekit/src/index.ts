/**
 * Tessera for SvelteKit (experimental: the API may change).
 *
 * @example
 * ```ts
 * // src/auth.ts
 * import { SvelteKitAuth } from "@tessera/sveltekit"
 * import Credentials from "@tessera/core/providers/credentials"
 * export const { handle, signIn, signOut } = SvelteKitAuth({ providers: [Credentials({ ... })] })
 *
 * // src/hooks.server.ts
 * export { handle } from "./auth"
 * ```
 * @module
 */
import type { Action, Handle, RequestEvent } from "@sveltejs/kit"
import { Auth, isAuthAction, type AuthConfig } from "@tessera/core"
import { signInWithForm, signOutWithForm } from "./actions.js"
import { withEventAddress } from "./address.js"
import { basePathOf, withEnv } from "./config.js"
import { kitRuntime, type Env, type KitRuntime } from "./env.js"
import { withoutForwarded } from "./forwarded.js"
import { privateIfSessionSet, sessionReader } from "./session.js"
import type { SvelteKitAuthConfig, SvelteKitAuthConfigInput } from "./types.js"

/**
 * What `SvelteKitAuth` returns: the hook and the two form actions.
 *
 * @see [Auth.js: @auth/sveltekit](https://authjs.dev/reference/sveltekit) (`SvelteKitAuth`)
 */
export interface SvelteKitAuthResult {
  /**
   * The request hook. Answers the auth actions under `basePath` (default
   * `/auth`: `/auth/signin`, `/auth/callback/<provider>`, `/auth/session`, ...)
   * and passes every other request on, with `event.locals.auth()` set.
   */
  handle: Handle
  /** Form action starting a sign-in: `export const actions = { default: signIn }` in `src/routes/signin/+page.server.ts`. */
  signIn: Action
  /** Form action ending the session: `export const actions = { default: signOut }` in `src/routes/signout/+page.server.ts`. */
  signOut: Action
}

/**
 * Creates the hook and the two form actions from one configuration, or from an
 * async function that returns the configuration for a request (called at most
 * once per request; return the same object for the same settings so it is
 * validated only once).
 *
 * Missing settings come from `$env/dynamic/private`: `AUTH_SECRET`, `AUTH_URL`,
 * `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID`/`_SECRET`/`_ISSUER`. Nothing is read or
 * run while SvelteKit builds or prerenders.
 *
 * @param input The configuration, or an async function returning it for a request.
 * @see [Auth.js: @auth/sveltekit](https://authjs.dev/reference/sveltekit) (`SvelteKitAuth`)
 */
export function SvelteKitAuth(input: SvelteKitAuthConfigInput): SvelteKitAuthResult {
  const lazyConfigs = new WeakMap<RequestEvent, Promise<SvelteKitAuthConfig>>()

  async function configFor(event: RequestEvent, env: Env, base?: string): Promise<AuthConfig> {
    let config: SvelteKitAuthConfig
    if (typeof input === "function") {
      let pending = lazyConfigs.get(event)
      if (!pending) {
        pending = Promise.resolve(input(event))
        lazyConfigs.set(event, pending)
      }
      config = await pending
    } else {
      config = input
    }
    return withEnv(env, config, base)
  }

  /**
   * The hook runs on every request of the app, and SvelteKit's servers track
   * every promise (AsyncLocalStorage), so with a static configuration the path
   * to `resolve` creates no promise but one: the response's `then`, which makes
   * a response carrying a session cookie private.
   */
  const handle: Handle = ({ event, resolve }) => {
    const runtime = kitRuntime()
    if (runtime instanceof Promise)
      return runtime.then((loaded) => handleWith(loaded, event, resolve))
    return handleWith(runtime, event, resolve)
  }

  function handleWith(
    { building, env, base }: KitRuntime,
    event: RequestEvent,
    resolve: Parameters<Handle>[0]["resolve"],
  ) {
    if (building) {
      // Prerendered pages are the same for everyone: nobody is signed in there.
      event.locals.auth ??= async () => null
      event.locals.getSession ??= event.locals.auth
      return resolve(event)
    }
    if (typeof input === "function")
      return configFor(event, env, base).then((config) => route(config, event, resolve))
    return route(withEnv(env, input, base), event, resolve)
  }

  function route(
    config: AuthConfig,
    event: RequestEvent,
    resolve: Parameters<Handle>[0]["resolve"],
  ) {
    event.locals.auth ??= sessionReader(event, config)
    // Auth.js's older name, still set by @auth/sveltekit: apps written against it keep working.
    event.locals.getSession ??= event.locals.auth
    if (isAuthRoute(event.url.pathname, basePathOf(config))) {
      return Auth(withEventAddress(withoutForwarded(event.request, event.url), event), config)
    }
    const response = resolve(event)
    return response instanceof Response
      ? privateIfSessionSet(event, response, config)
      : response.then((done) => privateIfSessionSet(event, done, config))
  }

  // Form actions never run while prerendering (SvelteKit refuses them there).
  const actionConfigFor = async (event: RequestEvent) => {
    const { env, base } = await kitRuntime()
    return configFor(event, env, base)
  }

  return {
    handle,
    signIn: async (event) => signInWithForm(event, await actionConfigFor(event)),
    signOut: async (event) => signOutWithForm(event, await actionConfigFor(event)),
  }
}

/** `<basePath>/<action>[/...]` with a known action; `/auth/anything-else` stays the app's. */
function isAuthRoute(pathname: string, basePath: string): boolean {
  if (!pathname.startsWith(`${basePath}/`)) return false
  const action = pathname.slice(basePath.length + 1).split("/")[0] ?? ""
  return isAuthAction(action)
}

export { AUTHORIZATION_PARAMS_PREFIX, type ActionResult } from "./actions.js"
export { setKitRuntime, type Env, type KitRuntime, type KitRuntimeSource } from "./env.js"
export type {
  SignInOptions,
  SignOutOptions,
  SvelteKitAuthConfig,
  SvelteKitAuthConfigInput,
} from "./types.js"
export type { AuthConfig } from "@tessera/core"
// As Auth.js re-exports it from each framework package (a proxy, a custom CA for OAuth requests).
export { customFetch } from "@tessera/core"
export type * from "@tessera/core/types"
export * from "@tessera/core/errors"
