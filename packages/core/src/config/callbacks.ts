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
  // Database sessions pass the adapter's session, whose `expires` is a Date: answer it as a string.
  session: ({ session }) => ({
    user: session.user
      ? { name: session.user.name, email: session.user.email, image: session.user.image }
      : undefined,
    expires: toIsoString(session.expires),
  }),
  jwt: ({ token }) => token,
}

function toIsoString(value: string | Date): string {
  return value instanceof Date ? value.toISOString() : value
}
