import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import { WebAuthnVerificationError } from "../errors.js"
import type { ResponseInternal } from "../types.js"

export async function webauthnCallback(_ctx: RequestContext, provider: InternalProvider<"webauthn">): Promise<ResponseInternal> {
  throw new WebAuthnVerificationError(`Passkey sign-in is not available yet for "${provider.id}"`)
}
