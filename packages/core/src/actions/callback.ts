/**
 * callback/<provider> and webauthn-options/<provider>: handed to the
 * provider's flow. The route table has already checked the method against the
 * flow's callback and the CSRF token where the flow asks for it.
 * @module
 */
import type { RequestContext } from "../context.js"
import { UnknownAction } from "../errors.js"
import { RequestError } from "../http/request.js"
import type { ResponseInternal } from "../types.js"

export function callback(ctx: RequestContext): Promise<ResponseInternal> {
  return ctx.flow!.callback.handle(ctx)
}

export function webauthnOptions(ctx: RequestContext): Promise<ResponseInternal> {
  const options = ctx.flow?.options
  if (!options) throw new RequestError(new UnknownAction("Not a WebAuthn provider"), 404)
  return options(ctx)
}
