/**
 * The steps of a credentials sign-in: loaded by `index.ts` on the first
 * sign-in, never by a server that only checks sessions.
 * @module
 */
export { credentialsCallback } from "./callback.js"
export { persistCredentials } from "./persist.js"
