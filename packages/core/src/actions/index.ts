/**
 * Routes a parsed request to its action.
 * @module
 */
import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import { UnknownAction } from "../errors.js"
import { RequestError } from "../http/request.js"
import type { ResponseInternal } from "../types.js"
import { webauthnOptions } from "../flows/webauthn/options.js"
import { csrf, providers, session } from "./api.js"
import { callback } from "./callback.js"
import { errorPage, signInPage, signOutPage, verifyRequestPage } from "./pages.js"
import { signIn } from "./signin.js"
import { signOut } from "./signout.js"

function requireProvider(ctx: RequestContext): InternalProvider {
  if (ctx.provider) return ctx.provider
  throw new RequestError(
    new UnknownAction(ctx.request.providerId ? "Unknown provider" : "A provider id is required"),
    404,
  )
}

export async function route(ctx: RequestContext): Promise<ResponseInternal> {
  const { action, method, providerId } = ctx.request
  if (providerId !== undefined && !ctx.provider) requireProvider(ctx)
  switch (action) {
    case "csrf":
      return csrf(ctx)
    case "providers":
      return providers(ctx)
    case "session":
      return session(ctx)
    case "signin":
      return method === "GET" ? signInPage(ctx) : signIn(ctx, ctx.provider)
    case "signout":
      return method === "GET" ? signOutPage(ctx) : signOut(ctx)
    case "callback":
      return callback(ctx, requireProvider(ctx))
    case "error":
      return errorPage(ctx)
    case "verify-request":
      return verifyRequestPage(ctx)
    case "webauthn-options": {
      const provider = requireProvider(ctx)
      if (provider.type !== "webauthn")
        throw new RequestError(new UnknownAction("Not a WebAuthn provider"), 404)
      return webauthnOptions(ctx, provider as InternalProvider<"webauthn">)
    }
  }
}
