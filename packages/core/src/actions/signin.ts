/**
 * POST signin/<provider>: starts a sign-in. Each provider type has its own flow.
 * @module
 */
import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import { assertCsrf } from "../http/csrf.js"
import { credentialsCallback } from "../flows/credentials/callback.js"
import { startEmailSignIn } from "../flows/email/signin.js"
import { resolveCallbackUrl, rememberCallbackUrl } from "../lib/callback-url.js"
import { startOAuthSignIn } from "../flows/oauth/authorization.js"
import type { ResponseInternal } from "../types.js"
import { signInPage } from "./pages.js"

export async function signIn(
  ctx: RequestContext,
  provider: InternalProvider | undefined,
): Promise<ResponseInternal> {
  if (!provider) return signInPage(ctx)
  await assertCsrf(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx)
  switch (provider.type) {
    case "oauth":
    case "oidc":
      rememberCallbackUrl(ctx, callbackUrl)
      return startOAuthSignIn(ctx, provider as InternalProvider<"oauth" | "oidc">)
    case "email":
      rememberCallbackUrl(ctx, callbackUrl)
      return startEmailSignIn(ctx, provider as InternalProvider<"email">)
    case "credentials":
      return credentialsCallback(ctx, provider as InternalProvider<"credentials">)
    case "webauthn":
      // Passkeys start in the browser (webauthn-options), not with a POST here.
      return signInPage(ctx)
  }
}
