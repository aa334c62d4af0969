/**
 * Tessera: authentication for the web platform.
 *
 * @example
 * ```ts
 * import { Auth } from "@tessera/core"
 * import Credentials from "@tessera/core/providers/credentials"
 *
 * const config = { secret: process.env.AUTH_SECRET, trustHost: true, providers: [Credentials({ ... })] }
 * const response = await Auth(request, config)
 * ```
 * @module
 */
export { Auth } from "./handler.js"
export { getSession, type GetSessionInput } from "./session/get-session.js"
export type { AuthConfig } from "./config/auth-config.js"
export { setEnvDefaults, createActionURL } from "./config/env.js"
export { deriveConfig } from "./config/derived.js"
export { isAuthAction } from "./routes.js"
export {
  getAccessToken,
  refreshTokenSet,
  type AccessToken,
  type JWTTokenSet,
} from "./tokens/access-token.js"
export { skipCSRFCheck, raw, customFetch } from "./symbols.js"
export { withClientAddress, type ClientAddress } from "./http/client-address.js"
export type * from "./types.js"
