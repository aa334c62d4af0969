/**
 * `@tessera/express/adapters`: the adapter types, as `@auth/express/adapters` offers them,
 * so an Auth.js app's imports keep working after `@auth/` -> `@tessera/`.
 * @module
 */
export type * from "@tessera/core/adapters"
