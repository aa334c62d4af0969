/**
 * Provider -> flow. Each flow is loaded (dynamic `import()`) when the first
 * configuration that has a provider of its type is resolved, and never
 * otherwise: an app with credentials only does not load oauth4webapi.
 *
 * Except the credentials flow's light part (its normalizer and form section,
 * 1.4 KB, all of it helpers of the core's): it is part of the core, because
 * its own `import()` was one more module to resolve, read, compile and link at
 * the first check (about 1 ms of CPU, the median of eight noisy runs in
 * bench/README.md's twenty-second round), against about 0.07 ms of compiling
 * for an app without credentials.
 * Its sign-in steps still load on the first sign-in.
 *
 * OAuth/OIDC, e-mail and credentials flows are built in, by type, so that a
 * hand-written provider object of those types works. The passkey flow is not:
 * the WebAuthn and Passkey factories attach it (`flows/attached.ts`), so that
 * only apps that import one of them load, or bundle, @simplewebauthn/server.
 * @module
 */
import type { ProviderType } from "../types.js"
import { attachedFlowOf, type AnyFlow, type FlowLoader } from "./attached.js"
import { credentialsFlow } from "./credentials/index.js"

const builtIn: Partial<Record<ProviderType, FlowLoader>> = {
  oauth: () => import("./oauth/index.js").then((m) => m.oauthFlow as AnyFlow),
  oidc: () => import("./oauth/index.js").then((m) => m.oauthFlow as AnyFlow),
  email: () => import("./email/index.js").then((m) => m.emailFlow as AnyFlow),
  credentials: async () => credentialsFlow as AnyFlow,
}

const TYPES: ReadonlySet<string> = new Set<ProviderType>([
  "oauth",
  "oidc",
  "email",
  "credentials",
  "webauthn",
])

/** True for the provider types Tessera has a flow for. */
export function isProviderType(type: unknown): type is ProviderType {
  return typeof type === "string" && TYPES.has(type)
}

/**
 * The loader of `provider`'s flow: the one its factory attached, else the
 * built-in one of its type; `undefined` when there is neither (a hand-written
 * `webauthn` provider).
 */
export function flowLoaderOf(provider: { type: ProviderType }): FlowLoader | undefined {
  return attachedFlowOf(provider) ?? builtIn[provider.type]
}

/** Runs each distinct loader once, in parallel; the flows by loader. */
export async function loadFlows(loaders: Iterable<FlowLoader>): Promise<Map<FlowLoader, AnyFlow>> {
  const unique = [...new Set(loaders)]
  const flows = await Promise.all(unique.map((load) => load()))
  return new Map(unique.map((load, i) => [load, flows[i]!]))
}
