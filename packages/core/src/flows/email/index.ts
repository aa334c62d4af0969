/**
 * The e-mail flow: `signin/<id>` mails a single-use link or one-time code,
 * `callback/<id>` consumes it. A link needs no CSRF token (its token is the
 * proof, and it works once); a posted code does.
 * @module
 */
import { resolveCallbackUrl, rememberCallbackUrl } from "../../lib/callback-url.js"
import type { Flow, ResolvedEmailProvider } from "../types.js"
import { emailCallback, emailFailurePage } from "./callback.js"
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
  // GET: the link from the mail; POST: a code form, or a confirmation page posting the link's fields.
  callback: {
    methods: ["GET", "POST"],
    // A posted code, and the built-in confirmation page, need the token (login CSRF);
    // a link's single-use token is its own proof, as is an app's own confirmation page's post.
    csrf: (ctx) =>
      ctx.request.method === "POST" &&
      (ctx.request.body?.code !== undefined ||
        (ctx.flow!.provider as ResolvedEmailProvider).confirmLink),
    handle: emailCallback,
  },
  section: emailSection,
  persist: persistEmail,
  failurePage: emailFailurePage,
}
