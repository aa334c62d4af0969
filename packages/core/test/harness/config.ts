/**
 * The one secret and origin of the core tests, the user Ada and a credentials
 * provider that knows her, and `makeConfig()`: a configuration with both, a
 * recording logger and rate-limit counters of its own.
 */
import type { AuthConfig } from "@tessera/core"
import { CredentialsSignin } from "@tessera/core/errors"
import Credentials from "@tessera/core/providers/credentials"
import { MemoryRateLimitStore } from "@tessera/core/rate-limit"
import type { User } from "@tessera/core/types"
import { recordingLogger } from "./logger.js"

export const SECRET = "test-secret-0123456789abcdef-0123456789abcdef"
export const OTHER_SECRET = "another-secret-fedcba9876543210-fedcba9876543210"
export const ORIGIN = "http://localhost:3000"
export const HTTPS_ORIGIN = "https://app.example"

export const ADA: User = {
  id: "user-1",
  name: "Ada Lovelace",
  email: "ada@example.com",
  image: "https://img.example/ada.png",
}

export class InvalidLogin extends CredentialsSignin {
  override code = "invalid_login"
}

/**
 * A credentials provider: `ada` / `correct horse` signs in; `throw` throws an
 * `InvalidLogin`; `crash` throws a plain error carrying a "secret" message.
 */
export function credentialsProvider(overrides: Record<string, unknown> = {}) {
  return Credentials({
    credentials: {
      username: { label: "Username", required: true },
      password: { label: "Password", type: "password" },
    },
    async authorize(credentials) {
      if (credentials.username === "throw") throw new InvalidLogin()
      if (credentials.username === "crash") throw new Error("db password hunter2 leaked")
      if (credentials.username === "ada" && credentials.password === "correct horse")
        return { ...ADA }
      return null
    },
    ...overrides,
  })
}

/** A test configuration with a credentials provider and a recording logger. */
export function makeConfig(overrides: Partial<AuthConfig> = {}) {
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    providers: [credentialsProvider()],
    logger: log.logger,
    // Counters of this configuration's own: tests in one file do not share limits.
    rateLimit: { store: new MemoryRateLimitStore() },
    ...overrides,
  }
  return { config, log }
}

/**
 * An OAuth provider at an authorization server that is never reached (for pages
 * and redirects to it): `github` by default; `overrides` change its id, name, style.
 */
export function oauthProvider(overrides: Record<string, unknown> = {}) {
  return {
    id: "github",
    name: "GitHub",
    type: "oauth" as const,
    authorization: "https://gh.example/authorize",
    token: "https://gh.example/token",
    userinfo: "https://gh.example/user",
    clientId: "id",
    clientSecret: "secret",
    ...overrides,
  }
}
