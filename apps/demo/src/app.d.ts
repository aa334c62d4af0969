// `App.Locals.auth()` comes from @tessera/sveltekit's own declaration.
import type { Session } from "@tessera/sveltekit"

declare global {
  namespace App {
    interface PageData {
      /** From the root layout: the session, or `null` when nobody is signed in. */
      session?: Session | null
      /** True when the server runs with development defaults (generated secret, mailbox). */
      devDefaults?: boolean
    }
  }
}

export {}
