/**
 * The e-mail flow: `signin/<id>` mails a single-use link, `callback/<id>`
 * consumes it. The callback needs no CSRF token: the link's token is the
 * proof, and it works once.
 * @module
 */
import { resolveCallbackUrl, rememberCallbackUrl } from "../../lib/callback-url.js"
import type { Flow, ResolvedEmailProvider } from "../types.js"
import { emailCallback } from "./callback.js"
import { normalizeEmailProvider } from "./normalize.js"
import { persistEmail } from "./persist.js"
import { emailSection } from "./section.js"
import { startEmailSignIn } from "./signin.js"

export const emailFlow: Flow<ResolvedEmailProvider> = {
  normalize: normalizeEmailProvider,
  async signIn(ctx, provider) {
    rememberCallbackUrl(ctx, await resolveCallbackUrl(ctx))
    return startEmailSignIn(ctx, provider)
  },
  // GET: the link from the mail; POST: an app's own confirmation page posting the link's fields.
  callback: { methods: ["GET", "POST"], csrf: false, handle: emailCallback },
  section: emailSection,
  persist: persistEmail,
}
