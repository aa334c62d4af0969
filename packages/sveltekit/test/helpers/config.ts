/** A credentials configuration for the tests, and the SvelteKit runtime they run in. */
import Credentials from "@tessera/core/providers/credentials"
import { CredentialsSignin } from "@tessera/core/errors"
import { decode } from "@tessera/core/jwt"
import { MemoryAdapter } from "@tessera/testing"
import type { SvelteKitAuthConfig } from "../../src/types.js"
import { setKitRuntime, type Env } from "../../src/env.js"

export const SECRET = "a-test-secret-that-is-long-enough-0123456789"
export const ORIGIN = "http://localhost:5173"

/** Thrown by `authorize` for the user "mallory": a custom, vague code. */
export class InvalidLogin extends CredentialsSignin {
  override code = "invalid_login"
}

export interface TestConfig extends SvelteKitAuthConfig {
  /** How often the session cookie was decrypted. */
  decodes: { count: number }
  /** Requests `authorize` received. */
  authorizeRequests: Request[]
  /** Errors core logged. */
  loggedErrors: Error[]
  /** Refusals the client caused, which core logs at debug level (with `debug: true`). */
  loggedRefusals: Error[]
}

/** Signs in "ada"/"lovelace"; "mallory" gets `InvalidLogin`; anyone else `null` (code `credentials`). */
export function testConfig(overrides: Partial<SvelteKitAuthConfig> = {}): TestConfig {
  const decodes = { count: 0 }
  const authorizeRequests: Request[] = []
  const loggedErrors: Error[] = []
  const loggedRefusals: Error[] = []
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: {
          username: { label: "Username" },
          password: { label: "Password", type: "password" },
        },
        async authorize({ username, password }, request) {
          authorizeRequests.push(request)
          if (username === "mallory") throw new InvalidLogin()
          if (username === "ada" && password === "lovelace")
            return { id: "1", name: "Ada", email: "ada@example.com" }
          return null
        },
      }),
    ],
    jwt: {
      decode: async (params) => {
        decodes.count++
        return decode(params)
      },
    },
    logger: {
      error: (error) => void loggedErrors.push(error),
      debug: (_message, metadata) => {
        const error = (metadata as { error?: unknown } | undefined)?.error
        if (error instanceof Error) loggedRefusals.push(error)
      },
    },
    ...overrides,
    decodes,
    authorizeRequests,
    loggedErrors,
    loggedRefusals,
  }
}

/** Runs the integration as if inside SvelteKit with `env` and `building`. */
export function useKitRuntime(env: Env = {}, building = false): void {
  setKitRuntime(() => ({ building, env }))
}

/** A memory adapter (with session records) holding the user "ada" signs in as (id "1"). */
export function adapterWithAda(): ReturnType<typeof MemoryAdapter> {
  const adapter = MemoryAdapter()
  adapter.store.users.set("1", {
    id: "1",
    name: "Ada",
    email: "ada@example.com",
    emailVerified: null,
    image: null,
  })
  return adapter
}
