/**
 * Provider type -> flow. Each flow is loaded when the first configuration
 * that has a provider of its type is resolved, and never otherwise: an app
 * with credentials only does not load oauth4webapi, and one without passkeys
 * does not load @simplewebauthn/server (their import dominates a cold start).
 * @module
 */
import type { ProviderType } from "../types.js"
import type { Flow, ResolvedProvider } from "./types.js"

type AnyFlow = Flow<ResolvedProvider, any>

const loaders: Record<ProviderType, () => Promise<AnyFlow>> = {
  oauth: () => import("./oauth/index.js").then((m) => m.oauthFlow as AnyFlow),
  oidc: () => import("./oauth/index.js").then((m) => m.oauthFlow as AnyFlow),
  email: () => import("./email/index.js").then((m) => m.emailFlow as AnyFlow),
  credentials: () => import("./credentials/index.js").then((m) => m.credentialsFlow as AnyFlow),
  webauthn: () => import("./webauthn/index.js").then((m) => m.webauthnFlow as AnyFlow),
}

/** True for the provider types Tessera has a flow for. */
export function isProviderType(type: unknown): type is ProviderType {
  return typeof type === "string" && Object.hasOwn(loaders, type)
}

/** The flows for `types`, loaded in parallel. */
export async function loadFlows(
  types: Iterable<ProviderType>,
): Promise<Map<ProviderType, AnyFlow>> {
  const unique = [...new Set(types)]
  const flows = await Promise.all(unique.map((type) => loaders[type]()))
  return new Map(unique.map((type, i) => [type, flows[i]!]))
}
