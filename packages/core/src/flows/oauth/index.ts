/**
 * The OAuth 2.0 / OpenID Connect flow, on oauth4webapi: the sign-in starts at
 * the provider's authorization endpoint and ends at `callback/<id>` (GET, or
 * POST for `response_mode=form_post`). The callback needs no CSRF token: the
 * state, PKCE and nonce cookies tie it to the browser that started it.
 *
 * Resolving a configuration needs only the normalizer and the page's section;
 * the sign-in steps (`steps.ts`) load on the first sign-in (`flows/lazy.ts`).
 * @module
 */
import { lazy } from "../lazy.js"
import type { Flow, ResolvedOAuthProvider } from "../types.js"
import { normalizeOAuthProvider } from "./normalize.js"
import type { OAuthIdentity } from "./persist.js"
import { oauthSection } from "./section.js"

const steps = lazy(() => import("./steps.js"))

export const oauthFlow: Flow<ResolvedOAuthProvider, OAuthIdentity> = {
  normalize: normalizeOAuthProvider,
  signIn: async (ctx, provider) => (await steps()).oauthSignIn(ctx, provider),
  callback: {
    methods: ["GET", "POST"],
    csrf: false,
    handle: async (ctx, provider) => (await steps()).oauthCallback(ctx, provider),
  },
  section: oauthSection,
  persist: async (ctx, identity) => (await steps()).persistOAuth(ctx, identity),
}
