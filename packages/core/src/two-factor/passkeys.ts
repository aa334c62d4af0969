/**
 * The flows that can answer the second step instead of a code (the WebAuthn
 * providers': a passkey of the pending user), in the configuration's order.
 * Through the resolved flows, so the two-factor code imports nothing of them.
 * @module
 */
import type { RequestContext } from "../context.js"
import type { ProviderFlow } from "../flows/types.js"

export function secondFactorFlows(ctx: RequestContext): ProviderFlow[] {
  return ctx.config.providers
    .map((provider) => ctx.config.flows.get(provider.id)!)
    .filter((flow) => flow.secondFactor !== undefined)
}
