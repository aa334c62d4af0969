/**
 * The relying party of one request: what `getRelayingParty` answers, else the
 * configured values, else the app's trusted origin. A credential is bound to
 * the rp id, and responses are only accepted from the listed origins.
 * @module
 */
import type { ResolvedWebAuthnProvider } from "../types.js"
import type { RequestContext } from "../../context.js"
import { checkRelyingParty } from "./normalize.js"

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
  const app = new URL(ctx.origin)
  const configured = provider.getRelayingParty
    ? // Checked on every call, as the static values are at start: a bad answer is a server fault.
      checkRelyingParty(
        provider,
        provider.getRelayingParty({ provider, url: new URL(ctx.authUrl) }, ctx.request) ?? {},
      )
    : provider.relayingParty
  return {
    id: configured.id ?? app.hostname,
    // As Auth.js: the host with its port, so two apps on one machine are told apart.
    name: configured.name ?? app.host,
    origins: configured.origin ?? [ctx.origin],
  }
}
