/**
 * The credentials flow: the form posts to `callback/<id>` (or `signin/<id>`),
 * with the CSRF token, and `authorize` decides.
 * @module
 */
import type { Flow, ResolvedCredentialsProvider } from "../types.js"
import { credentialsCallback } from "./callback.js"
import { normalizeCredentialsProvider } from "./normalize.js"
import { persistCredentials } from "./persist.js"
import { credentialsSection } from "./section.js"

export const credentialsFlow: Flow<ResolvedCredentialsProvider> = {
  normalize: normalizeCredentialsProvider,
  signIn: credentialsCallback,
  callback: { methods: ["POST"], csrf: true, handle: credentialsCallback },
  section: credentialsSection,
  persist: persistCredentials,
}
