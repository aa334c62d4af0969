/**
 * The OAuth 2.0 / OpenID Connect flow, on oauth4webapi: the sign-in starts at
 * the provider's authorization endpoint and ends at `callback/<id>` (GET, or
 * POST for `response_mode=form_post`). The callback needs no CSRF token: the
 * state, PKCE and nonce cookies tie it to the browser that started it.
 * @module
 */
import { resolveCallbackUrl, rememberCallbackUrl } from "../../lib/callback-url.js"
import type { Flow, ResolvedOAuthProvider } from "../types.js"
import { startOAuthSignIn } from "./authorization.js"
import { oauthCallback } from "./callback.js"
import { normalizeOAuthProvider } from "./normalize.js"
import { persistOAuth, type OAuthIdentity } from "./persist.js"
import { oauthSection } from "./section.js"

export const oauthFlow: Flow<ResolvedOAuthProvider, OAuthIdentity> = {
  normalize: normalizeOAuthProvider,
  async signIn(ctx, provider) {
    rememberCallbackUrl(ctx, await resolveCallbackUrl(ctx))
    return startOAuthSignIn(ctx, provider)
  },
  callback: { methods: ["GET", "POST"], csrf: false, handle: oauthCallback },
  section: oauthSection,
  persist: persistOAuth,
}
