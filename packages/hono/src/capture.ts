/**
 * What `authUser` carries besides the session: the JWT (`token`, JWT sessions)
 * or the stored user (`user`, database sessions). Core hands both to the
 * `session` callback only, so the configuration's callback is wrapped to note
 * them against the session object it returns; `getAuthUser` looks them up by
 * that object. Nothing is added to the session itself.
 * @module
 */
import type { AuthConfig } from "@tessera/core"
import type { AdapterUser } from "@tessera/core/adapters"
import type { JWT } from "@tessera/core/jwt"
import type { Session } from "@tessera/core/types"

export interface SessionExtras {
  token?: JWT
  user?: AdapterUser
}

const extrasBySession = new WeakMap<object, SessionExtras>()
const wrapped = new WeakMap<AuthConfig, AuthConfig>()

/** `config` with its `session` callback wrapped to record the callback's `token` and `user`. */
export function withSessionCapture(config: AuthConfig): AuthConfig {
  let derived = wrapped.get(config)
  if (!derived) {
    const session = config.callbacks?.session
    derived = {
      ...config,
      callbacks: {
        ...config.callbacks,
        async session(params) {
          // Without a callback of the app's, core's default would have run in this one's
          // place: run it here. (`params.session` itself is the stored session row with the
          // whole stored user for database sessions, never the browser's to see.)
          const result = session ? await session(params) : defaultSession(params.session)
          // Core passes `token` for JWT sessions and `user` for database ones; the other is absent.
          if (result !== null && typeof result === "object") {
            const extras: SessionExtras = {}
            if (params.token) extras.token = params.token
            if (params.user) extras.user = params.user
            extrasBySession.set(result, extras)
          }
          return result
        },
      },
    }
    wrapped.set(config, derived)
  }
  return derived
}

/**
 * Core's default `session` callback (Auth.js's): the user's name, e-mail and image, and
 * `expires` as an ISO string (the adapter's session has a `Date`). The test
 * `walkthrough23-database-session-shape` holds it to what `Auth()` answers without the integration.
 */
function defaultSession(session: Session): Session {
  const { user, expires } = session as { user?: Session["user"]; expires: string | Date }
  return {
    user: user ? { name: user.name, email: user.email, image: user.image } : undefined,
    expires: expires instanceof Date ? expires.toISOString() : expires,
  }
}

/** The `token` and `user` noted for `session` while it was made. */
export function extrasOf(session: Session): SessionExtras {
  return extrasBySession.get(session) ?? {}
}
