/**
 * The passkey (WebAuthn) flow, on @simplewebauthn/server: the browser asks
 * `webauthn-options/<id>` for a challenge, runs the ceremony, and posts the
 * result with the CSRF token to `callback/<id>`. A form post to `signin/<id>`
 * (a browser without the page's script) lands back on the sign-in page.
 * @module
 */
import { appPageUrl, signInPageUrl } from "../../http/urls.js"
import { resolveCallbackUrl } from "../../lib/callback-url.js"
import type { Flow, ResolvedWebAuthnProvider } from "../types.js"
import { verifySecondFactorPasskey, webauthnCallback } from "./callback.js"
import { normalizeWebAuthnProvider } from "./normalize.js"
import { webauthnOptions } from "./options.js"
import { webauthnHead, webauthnSecondFactorButton, webauthnSection } from "./page.js"
import { persistWebAuthn, type WebAuthnIdentity } from "./persist.js"
import { secondFactorPasskeys } from "./second-factor.js"

export const webauthnFlow: Flow<ResolvedWebAuthnProvider, WebAuthnIdentity> = {
  normalize: normalizeWebAuthnProvider,
  async signIn(ctx) {
    const callbackUrl = await resolveCallbackUrl(ctx)
    const email = typeof ctx.request.body?.email === "string" ? ctx.request.body.email : undefined
    return { redirect: appPageUrl(ctx, signInPageUrl(ctx), { callbackUrl, email }) }
  },
  callback: { methods: ["POST"], csrf: true, handle: webauthnCallback },
  section: webauthnSection,
  head: webauthnHead,
  persist: persistWebAuthn,
  options: webauthnOptions,
  // A passkey of the pending user in place of the code (docs/two-factor.md).
  secondFactor: {
    available: async (ctx, provider, pending) =>
      (await secondFactorPasskeys(ctx, provider, pending)).length > 0,
    button: webauthnSecondFactorButton,
    verify: verifySecondFactorPasskey,
  },
}
