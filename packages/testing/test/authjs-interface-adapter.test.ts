/**
 * docs/databases.md: "any adapter with the Auth.js v5 interface works, and runAdapterTests
 * checks one". An adapter with only Auth.js's methods (none of Tessera's optional extensions:
 * session records, refresh leases, counter swaps, second factors, createUserAndAccount) passes
 * the suite: the tests of the extensions it lacks are reported as skipped, naming the method,
 * instead of failing with "does not implement".
 */
import { afterAll, expect } from "vitest"
import type { Adapter } from "@tessera/core/adapters"
import { MemoryAdapter, createMemoryStore } from "@tessera/testing"
import { runAdapterTests } from "@tessera/testing/suites"
import { memoryDb } from "./memory-db.js"

/** The methods of Auth.js v5's `Adapter` interface, and nothing else. */
const authjsMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "getAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const satisfies readonly (keyof Adapter)[]

const store = createMemoryStore()
const full = MemoryAdapter(store)
const calls = new Set<string>()
const authjsOnly: Adapter = Object.fromEntries(
  authjsMethods.map((name) => {
    const fn = full[name] as (...args: unknown[]) => unknown
    return [name, (...args: unknown[]) => (calls.add(name), fn.apply(full, args))]
  }),
)

runAdapterTests({
  name: "an adapter with only the Auth.js interface",
  adapter: authjsOnly,
  db: memoryDb(store),
})

afterAll(() => {
  // The Auth.js methods were tested, not skipped along with the extensions.
  expect([...calls].sort()).toEqual([...authjsMethods].sort())
})
