/**
 * The e-mail flow: `signin/<id>` mails a single-use link, `callback/<id>`
 * consumes it. The callback needs no CSRF token: the link's token is the
 * proof, and it works once.
 *
 * Resolving a configuration needs only the normalizer and the page's section;
 * the sign-in steps (`steps.ts`) load on the first sign-in (`flows/lazy.ts`).
 * @module
 */
import { lazy } from "../lazy.js"
import type { Flow, ResolvedEmailProvider } from "../types.js"
import { normalizeEmailProvider } from "./normalize.js"
import { emailSection } from "./section.js"

const steps = lazy(() => import("./steps.js"))

export const emailFlow: Flow<ResolvedEmailProvider> = {
  normalize: normalizeEmailProvider,
  signIn: async (ctx, provider) => (await steps()).emailSignIn(ctx, provider),
  // GET: the link from the mail; POST: an app's own confirmation page posting the link's fields.
  callback: {
    methods: ["GET", "POST"],
    csrf: false,
    handle: async (ctx, provider) => (await steps()).emailCallback(ctx, provider),
  },
  section: emailSection,
  persist: async (ctx, identity) => (await steps()).persistEmail(ctx, identity),
}
