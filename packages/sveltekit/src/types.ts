/**
 * Types of the SvelteKit integration, and the `App.Locals` augmentation that
 * gives every request `event.locals.auth()`.
 * @module
 */
import type { AuthConfig } from "@tessera/core"
import type { Session } from "@tessera/core/types"
import type { RequestEvent } from "@sveltejs/kit"

/**
 * `AuthConfig` without `raw`: the integration decides how it calls `Auth()`.
 *
 * @see [Auth.js: @auth/sveltekit](https://authjs.dev/reference/sveltekit) (`SvelteKitAuthConfig`)
 */
export interface SvelteKitAuthConfig extends Omit<AuthConfig, "raw"> {}

/**
 * A configuration, or an async function returning it per request (lazy
 * initialisation), e.g. to read `event.platform.env` on edge adapters.
 * Return the same object for the same settings: the configuration is validated
 * once per object, so a fresh object per request is validated per request.
 *
 * @see [Auth.js: lazy initialization](https://authjs.dev/reference/sveltekit#lazy-initialization)
 */
export type SvelteKitAuthConfigInput =
  SvelteKitAuthConfig | ((event: RequestEvent) => PromiseLike<SvelteKitAuthConfig>)

/**
 * Options accepted by the server-side `signIn`/`signOut` helpers (and as form fields).
 *
 * @see [Auth.js: @auth/sveltekit](https://authjs.dev/reference/sveltekit) (`signIn`)
 */
export interface SignInOptions {
  /** Where to go after signing in. Default: a `redirectTo`/`callbackUrl` query of the action or of the page the form was on, that page, then `/`. */
  redirectTo?: string
  /** Auth.js' older name of `redirectTo`. */
  callbackUrl?: string
  /** `false`: return `{ url }` instead of redirecting. Default `true`. */
  redirect?: boolean | "true" | "false"
  /** Anything else is passed on as a form field: credentials, `email`, ... */
  [field: string]: string | boolean | undefined
}

/**
 * Options accepted by the server-side `signOut` helper (and as form fields).
 *
 * @see [Auth.js: @auth/sveltekit](https://authjs.dev/reference/sveltekit) (`signOut`)
 */
export interface SignOutOptions {
  redirectTo?: string
  callbackUrl?: string
  redirect?: boolean | "true" | "false"
  /**
   * Tessera extension (needs session records: an adapter). `"all"`: end every session of the
   * user, this one included; `"others"`: every one but this. Default: this session only.
   */
  scope?: "all" | "others"
}

declare global {
  namespace App {
    interface Locals {
      /**
       * The session of this request, or `null` when nobody is signed in. Reads
       * and decrypts the session cookie directly; computed once per request,
       * however often it is called.
       */
      auth(): Promise<Session | null>
      /** @deprecated Use `auth` instead (the same function, Auth.js's older name). */
      getSession(): Promise<Session | null>
    }
    /**
     * `session`, as the root layout's load usually returns it (`$page.data.session`), typed
     * as @auth/sveltekit types it, so an app's pages compile unchanged.
     */
    interface PageData {
      session?: Session | null
    }
  }
}
