/**
 * Ada signing in with the credentials provider, stored by the adapter, for each backend
 * (the memory adapter, SQLite in a file) and each session strategy: the setup of the tests
 * of session records (two-factor waits, revoking, the sign-out-everywhere mark). Stored, so
 * that JWT sessions get records (and the mark) too; `revalidateAge: 0`, so every check asks
 * the record and a revoked JWT session ends on its next request.
 */
import { afterEach, beforeEach, describe } from "vitest"
import type { AuthConfig } from "@tessera/core"
import { memoryBackend, sqliteBackend, type Backend } from "./backends.js"
import { ADA, credentialsProvider, makeConfig } from "./config.js"

export type SessionStrategyName = "jwt" | "database"

/** What the running test works with; set by the helper's `beforeEach` hooks. */
export interface StoredUserSetup {
  backend: Backend
  config: AuthConfig
}

/**
 * Declares `tests` once per backend and strategy, under `title`. `setup` is filled in
 * before each test (read it inside tests, not while declaring them); `strategy` lets a
 * block declare a test for one strategy only.
 */
export function describeStoredUser(
  title: string,
  tests: (setup: StoredUserSetup, strategy: SessionStrategyName) => void,
): void {
  describe.each([
    ["memory", async () => memoryBackend()],
    ["sqlite", sqliteBackend],
  ] as const)(`${title} on %s`, (_name, makeBackend) => {
    const setup = {} as StoredUserSetup
    beforeEach(async () => {
      setup.backend = await makeBackend()
      await setup.backend.adapter.createUser!({
        ...ADA,
        id: ADA.id!,
        email: ADA.email!,
        emailVerified: null,
      })
    })
    afterEach(async () => {
      await setup.backend.close()
    })

    describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
      beforeEach(() => {
        setup.config = makeConfig({
          adapter: setup.backend.adapter,
          providers: [credentialsProvider()],
          session: { strategy, revalidateAge: 0 },
        }).config
      })
      tests(setup, strategy)
    })
  })
}
