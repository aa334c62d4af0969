/**
 * GET/POST callback/<provider>: finishes a sign-in.
 * @module
 */
import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import { assertCsrf } from "../http/csrf.js"
import { credentialsCallback } from "../flows/credentials/callback.js"
import { emailCallback } from "../flows/email/callback.js"
import { oauthCallback } from "../flows/oauth/callback.js"
import { webauthnCallback } from "../flows/webauthn/callback.js"
import { UnknownAction } from "../errors.js"
import { RequestError } from "../http/request.js"
import type { ResponseInternal } from "../types.js"

export async function callback(
  ctx: RequestContext,
  provider: InternalProvider,
): Promise<ResponseInternal> {
  switch (provider.type) {
    case "oauth":
    case "oidc":
      // POST only for response_mode=form_post, which carries no CSRF token: state/PKCE protect it.
      return oauthCallback(ctx, provider as InternalProvider<"oauth" | "oidc">)
    case "email":
      return emailCallback(ctx, provider as InternalProvider<"email">)
    case "credentials":
      if (ctx.request.method !== "POST") {
        throw new RequestError(new UnknownAction("Credentials are submitted with POST"), 405, {
          Allow: "POST",
        })
      }
      await assertCsrf(ctx)
      return credentialsCallback(ctx, provider as InternalProvider<"credentials">)
    case "webauthn":
      if (ctx.request.method !== "POST") {
        throw new RequestError(
          new UnknownAction("Passkey responses are submitted with POST"),
          405,
          { Allow: "POST" },
        )
      }
      await assertCsrf(ctx)
      return webauthnCallback(ctx, provider as InternalProvider<"webauthn">)
  }
}
