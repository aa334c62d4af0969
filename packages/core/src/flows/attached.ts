/**
 * Flows a provider factory brings with it. The passkey flow (and through it
 * @simplewebauthn/server with its ASN.1/X.509 stack, and the browser client
 * the sign-in page embeds) is reachable only from `@tessera/core/providers/webauthn`
 * and `/passkey`: the factory attaches a loader for it under {@link attachedFlow},
 * and core loads it when a configuration with such a provider is resolved. An
 * app without a passkey provider never loads it, and its bundle does not hold it.
 * @module
 */
import type { Flow, ResolvedProvider } from "./types.js"

export type AnyFlow = Flow<ResolvedProvider, any>

/** Loads a flow; called once per configuration that needs it (modules load once per process). */
export type FlowLoader = () => Promise<AnyFlow>

/**
 * The key a factory attaches its flow's loader under. `Symbol.for`, so that a
 * provider module an app's bundler copied still speaks to the core installed
 * beside it.
 */
export const attachedFlow: unique symbol = Symbol.for("tessera.flow")

/** `provider` with `load` attached (enumerable: spreading and merging options keep it). */
export function withFlow<P extends object>(provider: P, load: FlowLoader): P {
  return Object.assign(provider, { [attachedFlow]: load })
}

/** The loader a factory attached to `provider`, if one did. */
export function attachedFlowOf(provider: object): FlowLoader | undefined {
  const load = (provider as { [attachedFlow]?: unknown })[attachedFlow]
  return typeof load === "function" ? (load as FlowLoader) : undefined
}
