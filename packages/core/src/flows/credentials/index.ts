/**
 * The credentials flow: the form posts to `callback/<id>` (or `signin/<id>`),
 * with the CSRF token, and `authorize` decides.
 *
 * Resolving a configuration needs only the normalizer and the page's section;
 * the sign-in steps (`steps.ts`) load on the first sign-in (`flows/lazy.ts`).
 * @module
 */
import { lazy } from "../lazy.js"
import type { Flow, ResolvedCredentialsProvider } from "../types.js"
import { normalizeCredentialsProvider } from "./normalize.js"
import { credentialsSection } from "./section.js"

const steps = lazy(() => import("./steps.js"))

const signIn: Flow<ResolvedCredentialsProvider>["signIn"] = async (ctx, provider) =>
  (await steps()).credentialsCallback(ctx, provider)

export const credentialsFlow: Flow<ResolvedCredentialsProvider> = {
  normalize: normalizeCredentialsProvider,
  signIn,
  callback: { methods: ["POST"], csrf: true, handle: signIn },
  section: credentialsSection,
  persist: async (ctx, identity) => (await steps()).persistCredentials(ctx, identity),
}
