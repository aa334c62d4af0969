/**
 * What the integration conformance suite (`runIntegrationTests` in
 * `@tessera/testing/suites`) is made of, usable without a test runner: the harness
 * an integration implements, the suite's users and its configuration.
 *
 * @module
 */
import { randomBytes } from "node:crypto"
import type { AuthConfig } from "@tessera/core"
import Credentials from "@tessera/core/providers/credentials"

/**
 * An app started for {@link runIntegrationTests}: where it listens, how to stop it.
 *
 * @see [docs/testing.md: conformance suites](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#conformance-suites)
 */
export interface IntegrationApp {
  /** `http://127.0.0.1:<port>`. */
  origin: string
  stop(): Promise<void>
}

/**
 * What {@link runIntegrationTests} needs: a name, and how to start the app with a configuration.
 *
 * @see [docs/testing.md: conformance suites](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#conformance-suites)
 */
export interface IntegrationHarness {
  /** Names the suite. */
  name: string
  /**
   * Starts the app on 127.0.0.1, port 0. Once it listens, it calls `config`
   * with its origin and uses the configuration that comes back (one object,
   * for the life of the app). The app answers the auth routes under `/auth`
   * through the integration, and `GET /me` through the integration's session
   * reader: 401 without a session, 200 with the session as JSON otherwise,
   * setting any cookies the reader asks for.
   */
  start(options: { config: (origin: string) => Promise<AuthConfig> }): Promise<IntegrationApp>
}

/**
 * The accounts the suite's credentials provider knows.
 *
 * @see [docs/testing.md: conformance suites](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#conformance-suites)
 */
export const integrationUsers = {
  alice: {
    password: "wonderland-42",
    user: { id: "1", name: "Alice", email: "alice@example.test" },
  },
  // Her token carries enough data to need three session cookie chunks.
  bulky: {
    password: "heavy-load-7",
    user: { id: "2", name: "Bulky", email: "bulky@example.test" },
  },
} as const

/**
 * A credentials provider (`id: "credentials"`) that signs in the {@link integrationUsers}.
 *
 * @see [docs/testing.md: conformance suites](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#conformance-suites)
 */
export function integrationCredentials() {
  return Credentials({
    credentials: {
      username: { label: "User name" },
      password: { label: "Password", type: "password" },
    },
    authorize({ username, password }) {
      const account = integrationUsers[String(username) as keyof typeof integrationUsers]
      return account && account.password === password ? { ...account.user } : null
    },
  })
}

/**
 * The suite's configuration, with credentials sign-in only: a start for an
 * integration's own tests. `extra` replaces any of its options.
 *
 * @param extra Options to set or replace (`session`, `callbacks`, `providers`, ...).
 * @example
 * ```ts
 * const config = integrationConfig({ session: { updateAge: 0 } })
 * ```
 *
 * @see [docs/testing.md: conformance suites](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#conformance-suites)
 */
export function integrationConfig(extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: "integration-suite-secret-0123456789abcdef",
    // Core trusts forwarding headers with this, so only the integration stands between them and core.
    trustHost: true,
    providers: [integrationCredentials()],
    callbacks: {
      jwt({ token, user }) {
        if (user?.name === "Bulky") token.padding = randomBytes(6000).toString("base64url")
        return token
      },
    },
    ...extra,
  }
}
