/**
 * The e-mail flow: `signin/<id>` mails a single-use link or one-time code,
 * `callback/<id>` consumes it. A link needs no CSRF token (its token is the
 * proof, and it works once); a posted code does.
 *
 * Resolving a configuration needs only the normalizer and the page's section;
 * the sign-in steps (`steps.ts`) load on the first sign-in (`flows/lazy.ts`).
 * @module
 */
import { lazy } from "../lazy.js"
import type { Flow, ResolvedEmailProvider } from "../types.js"
import { emailFailurePage } from "./failure.js"
import { normalizeEmailProvider } from "./normalize.js"
import { emailSection } from "./section.js"

const steps = lazy(() => import("./steps.js"))

export const emailFlow: Flow<ResolvedEmailProvider> = {
  normalize: normalizeEmailProvider,
  signIn: async (ctx, provider) => (await steps()).emailSignIn(ctx, provider),
  // GET: the link from the mail; POST: a code form, or a confirmation page posting the link's fields.
  callback: {
    methods: ["GET", "POST"],
    // A posted code, and the built-in confirmation page, need the token (login CSRF);
    // a link's single-use token is its own proof, as is an app's own confirmation page's post.
    csrf: (ctx) =>
      ctx.request.method === "POST" &&
      (ctx.request.body?.code !== undefined ||
        (ctx.flow!.provider as ResolvedEmailProvider).confirmLink),
    handle: async (ctx, provider) => (await steps()).emailCallback(ctx, provider),
  },
  section: emailSection,
  persist: async (ctx, identity) => (await steps()).persistEmail(ctx, identity),
  failurePage: emailFailurePage,
}
