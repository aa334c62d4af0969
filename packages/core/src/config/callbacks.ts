/**
 * Default callbacks. `redirect` is the one that matters for security: it keeps
 * every callback URL on the application's origin.
 * @module
 */
import type { CallbacksOptions } from "../types.js"
import { sameOriginUrl } from "../lib/redirect.js"

export const defaultCallbacks: CallbacksOptions = {
  signIn: () => true,
  redirect: ({ url, baseUrl }) => sameOriginUrl(url, baseUrl) ?? baseUrl,
  session: ({ session }) => ({
    user: session.user
      ? { name: session.user.name, email: session.user.email, image: session.user.image }
      : undefined,
    expires: session.expires,
  }),
  jwt: ({ token }) => token,
}
