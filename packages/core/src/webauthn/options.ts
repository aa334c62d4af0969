import type { RequestContext } from "../context.js"
import type { InternalProvider } from "../config/providers.js"
import { WebAuthnVerificationError } from "../errors.js"
import type { ResponseInternal } from "../types.js"

export async function webauthnOptions(_ctx: RequestContext, provider: InternalProvider<"webauthn">): Promise<ResponseInternal> {
  throw new WebAuthnVerificationError(`Passkey options are not available yet for "${provider.id}"`)
}
