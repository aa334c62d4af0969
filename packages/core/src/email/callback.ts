import type { InternalProvider } from "../config/providers.js"
import type { RequestContext } from "../context.js"
import { Verification } from "../errors.js"
import type { ResponseInternal } from "../types.js"

export async function emailCallback(_ctx: RequestContext, provider: InternalProvider<"email">): Promise<ResponseInternal> {
  throw new Verification(`E-mail callback is not available yet for "${provider.id}"`)
}
