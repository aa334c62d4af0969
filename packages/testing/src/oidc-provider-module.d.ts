// oidc-provider ships no type declarations; this is the little of it that
// oidc-provider.ts uses. Nothing here appears in @tessera/testing's public types.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http"

  interface OidcProviderInstance {
    proxy: boolean
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    on(event: string, listener: (...args: any[]) => void): void
    [key: string]: any
  }

  const Provider: new (
    issuer: string,
    configuration?: Record<string, unknown>,
  ) => OidcProviderInstance
  export default Provider
}
