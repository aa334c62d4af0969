/**
 * Records for adapter tests: a user, an OAuth account and a passkey with random ids,
 * so tests need no empty database and do not depend on each other. No test runner
 * needed: the conformance suite (`@tessera/testing/suites`) uses them, and so can your tests.
 *
 * @module
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "@tessera/core/adapters"

const uid = () => crypto.randomUUID()

/**
 * A user with random id and e-mail. Dates have millisecond precision, as every database keeps.
 *
 * @param overrides Fields to set.
 * @see [docs/testing.md: testing your own adapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-adapter)
 */
export function testUser(overrides: Partial<AdapterUser> = {}): AdapterUser {
  const id = uid()
  return {
    id,
    name: "Ada Lovelace",
    email: `ada-${id}@example.com`,
    emailVerified: null,
    image: "https://example.com/ada.png",
    ...overrides,
  }
}

/**
 * An OAuth account with every standard token field set.
 *
 * @param userId The user it belongs to.
 * @param overrides Fields to set.
 * @see [docs/testing.md: testing your own adapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-adapter)
 */
export function testAccount(
  userId: string,
  overrides: Partial<AdapterAccount> = {},
): AdapterAccount {
  return {
    userId,
    type: "oauth",
    provider: "github",
    providerAccountId: uid(),
    access_token: `at-${uid()}`,
    refresh_token: `rt-${uid()}`,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    token_type: "bearer",
    scope: "read:user user:email",
    id_token: "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.",
    session_state: "state-1",
    ...overrides,
  }
}

/**
 * A passkey (authenticator) with a random credential id.
 *
 * @param userId The user it belongs to.
 * @param overrides Fields to set.
 * @see [docs/testing.md: testing your own adapter](https://github.com/tessera-auth/tessera/blob/main/docs/testing.md#testing-your-own-adapter)
 */
export function testAuthenticator(
  userId: string,
  overrides: Partial<AdapterAuthenticator> = {},
): AdapterAuthenticator {
  return {
    userId,
    credentialID: `cred-${uid()}`,
    providerAccountId: `cred-${uid()}`,
    credentialPublicKey: "pQECAyYgASFYIB2Fv0FJ2yY1L2d8p6sA3XUyq1gWqgq9e5U",
    counter: 0,
    credentialDeviceType: "multiDevice",
    credentialBackedUp: true,
    transports: "internal,hybrid",
    ...overrides,
  }
}
