/**
 * The relying party of one request: configured values, else the request URL's
 * (as the client used it, proxies included). A credential is bound to the rp id,
 * and responses are only accepted from the listed origins.
 * @module
 */
import type { ResolvedWebAuthnProvider } from "../types.js"
import type { RequestContext } from "../../context.js"

export interface RequestRelyingParty {
  id: string
  name: string
  /** Every origin a response may come from. */
  origins: string[]
}

export function relyingPartyFor(
  ctx: RequestContext,
  provider: ResolvedWebAuthnProvider,
): RequestRelyingParty {
  const configured = provider.relayingParty
  const id = configured.id ?? ctx.request.url.hostname
  return {
    id,
    name: configured.name ?? id,
    origins: configured.origin ?? [ctx.origin],
  }
}
