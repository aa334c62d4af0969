/**
 * The tables, as Kysely sees them. Column names are snake_case; the adapter
 * maps them to the camelCase fields of `@tessera/core/adapters`.
 *
 * Types that differ by engine: dates are `timestamptz` on PostgreSQL and integer
 * milliseconds on SQLite; booleans are `boolean` and 0/1; 64-bit integers come
 * back from PostgreSQL as strings. The adapter converts all of them.
 * @module
 */

/**
 * The database engines `@tessera/sql` supports.
 *
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md)
 */
export type SqlDialect = "sqlite" | "postgres"

/**
 * A `Date` (PostgreSQL timestamptz) or milliseconds since the epoch (SQLite).
 *
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md)
 */
export type Timestamp = Date | number
/**
 * PostgreSQL returns `bigint` columns as strings.
 *
 * @see [node-postgres: types](https://node-postgres.com/features/types)
 */
export type BigIntColumn = number | string

/**
 * The `users` table.
 *
 * @see [Auth.js: database models](https://authjs.dev/concepts/database-models) (User)
 */
export interface UsersTable {
  id: string
  name: string | null
  /** Unique; several users may have none. */
  email: string | null
  email_verified: Timestamp | null
  image: string | null
}

/**
 * Primary key (provider, provider_account_id).
 *
 * @see [Auth.js: database models](https://authjs.dev/concepts/database-models) (Account)
 */
export interface AccountsTable {
  user_id: string
  type: string
  provider: string
  provider_account_id: string
  refresh_token: string | null
  access_token: string | null
  /** Seconds since the epoch. */
  expires_at: BigIntColumn | null
  token_type: string | null
  scope: string | null
  id_token: string | null
  session_state: string | null
  /** A token refresh in progress (`leaseAccountRefresh`): its id and until when it holds (0003). */
  refresh_lease_id: string | null
  refresh_lease_until: Timestamp | null
}

/**
 * `session_token` is the SHA-256 (hex) of the cookie value, never the value.
 * Every row is also a session record (0003): database sessions, and JWT
 * sessions, whose rows have `session_token` `record:<id>` (no cookie hashes to that).
 *
 * @see [Auth.js: database models](https://authjs.dev/concepts/database-models) (Session)
 */
export interface SessionsTable {
  session_token: string
  user_id: string
  expires: Timestamp
  /** The record's id (random, unique); the handle sessions are revoked by. */
  id: string | null
  created_at: Timestamp | null
  last_seen_at: Timestamp | null
  user_agent: string | null
  /** IPv4 /24 or IPv6 /48 of the sign-in, when known. */
  ip_prefix: string | null
  provider: string | null
  provider_account_id: string | null
  /** The OpenID provider's `sid`, for back-channel logout. */
  provider_session_id: string | null
}

/**
 * Primary key (identifier, token); `token` is a keyed hash of the mailed value.
 *
 * @see [Auth.js: database models](https://authjs.dev/concepts/database-models) (Verification Token)
 */
export interface VerificationTokensTable {
  identifier: string
  token: string
  expires: Timestamp
}

/**
 * The `authenticators` table: the users' passkeys.
 *
 * @see [Auth.js: WebAuthn, database schema](https://authjs.dev/getting-started/authentication/webauthn)
 */
export interface AuthenticatorsTable {
  credential_id: string
  user_id: string
  provider_account_id: string
  credential_public_key: string
  counter: BigIntColumn
  credential_device_type: string
  credential_backed_up: boolean | number
  /** Comma-separated, e.g. "internal,hybrid". */
  transports: string | null
}

/**
 * Rate-limit counters (`SqlRateLimitStore`). `key` holds the rule, a keyed hash
 * of the subject and the window's index, never an address.
 *
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md)
 */
export interface RateLimitsTable {
  key: string
  count: number
  /** When the counter may be deleted. */
  expires_at: Timestamp
}

/**
 * A user's second factor. `secret` is the TOTP key as Tessera encrypted it.
 *
 * @see [docs/two-factor.md](https://github.com/tessera-auth/tessera/blob/main/docs/two-factor.md)
 */
export interface TwoFactorsTable {
  user_id: string
  secret: string
  /** `null` until the user confirms the factor with a code. */
  enabled_at: Timestamp | null
  /** The last TOTP time step a code was accepted for. */
  last_used_step: BigIntColumn | null
}

/**
 * Primary key (user_id, code_hash); `code_hash` is a keyed hash of a recovery code.
 *
 * @see [docs/two-factor.md](https://github.com/tessera-auth/tessera/blob/main/docs/two-factor.md)
 */
export interface TwoFactorRecoveryCodesTable {
  user_id: string
  code_hash: string
}

/**
 * Every table `@tessera/sql` keeps, for `Kysely<Database>`.
 *
 * @see [docs/databases.md](https://github.com/tessera-auth/tessera/blob/main/docs/databases.md)
 */
export interface Database {
  users: UsersTable
  accounts: AccountsTable
  sessions: SessionsTable
  verification_tokens: VerificationTokensTable
  authenticators: AuthenticatorsTable
  rate_limits: RateLimitsTable
  two_factors: TwoFactorsTable
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable
}
