/**
 * The conformance suite's raw readers for a memory store: what the memory
 * adapter really stored, read without going through the adapter.
 */
import type { AdapterTestOptions } from "@tessera/testing/suites"
import { accountKey, tokenKey, type MemoryStore } from "../src/memory-adapter.js"

export function memoryDb(store: MemoryStore): AdapterTestOptions["db"] {
  return {
    user: (id) => store.users.get(id) ?? null,
    account: ({ provider, providerAccountId }) =>
      store.accounts.get(accountKey(provider, providerAccountId)) ?? null,
    session: (sessionToken) => store.sessions.get(sessionToken) ?? null,
    verificationToken: ({ identifier, token }) =>
      store.verificationTokens.get(tokenKey(identifier, token)) ?? null,
    authenticator: (credentialID) => store.authenticators.get(credentialID) ?? null,
    twoFactor: (userId) => {
      const found = store.twoFactors.get(userId)
      return found
        ? { ...found, recoveryCodes: [...(store.recoveryCodes.get(userId) ?? [])] }
        : null
    },
  }
}
