/**
 * The unions of built-in provider ids, at the path Auth.js has them
 * (`@auth/core/providers/provider-types`), so an import of that module moves over by changing
 * `@auth/` to `@tessera/`. They are the same types as `@tessera/core/providers` exports.
 *
 * @see [Auth.js: OAuthProviderId](https://authjs.dev/reference/core/providers#oauthproviderid)
 * @module
 */
export type { OAuthProviderId } from "./oauth.js"
export type { EmailProviderId } from "./email.js"
