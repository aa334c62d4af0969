/**
 * The database adapter contract: the same method names and shapes as Auth.js v5,
 * so an adapter written for one works with the other.
 *
 * Every method is optional in the type; Tessera checks at configuration time that
 * the methods a configured feature needs are present (`MissingAdapterMethods`).
 *
 * Tessera stores the SHA-256 of session tokens and a keyed hash of verification
 * tokens and recovery codes, never the tokens themselves (and TOTP keys
 * encrypted): the values adapters receive in
 * `sessionToken` and `token` are already hashed, so adapters need no crypto.
 *
 * @module
 */
import type { Account, Authenticator, Awaitable, User } from "./types.js"

/**
 * A user as stored by an adapter. `email` is unique among users.
 *
 * @see [Auth.js: AdapterUser](https://authjs.dev/reference/core/adapters#adapteruser)
 */
export interface AdapterUser extends User {
  id: string
  email: string
  emailVerified: Date | null
}

/**
 * An account (a provider identity) linked to a user. (provider, providerAccountId) is unique.
 *
 * @see [Auth.js: AdapterAccount](https://authjs.dev/reference/core/adapters#adapteraccount)
 */
export interface AdapterAccount extends Account {
  userId: string
  type: AdapterAccountType
}

/**
 * The kind of sign-in an account came from.
 *
 * @see [Auth.js: AdapterAccountType](https://authjs.dev/reference/core/adapters#adapteraccounttype)
 */
export type AdapterAccountType = "oauth" | "oidc" | "email" | "webauthn" | "credentials"

/**
 * A database session. `sessionToken` is the SHA-256 (hex) of the cookie value.
 *
 * The other fields are a Tessera extension (session management): an adapter
 * with the session-record methods stores them with the row, and returns them
 * from `getSessionAndUser`; an adapter without those methods may ignore them.
 *
 * @see [Auth.js: AdapterSession](https://authjs.dev/reference/core/adapters#adaptersession)
 * @see {@link AdapterSessionRecord}
 */
export interface AdapterSession extends Partial<Omit<AdapterSessionRecord, "userId" | "expires">> {
  sessionToken: string
  userId: string
  expires: Date
}

/**
 * A session as listed and revoked (Tessera extension), whatever the strategy:
 * with database sessions it is the session row; with JWT sessions a record the
 * encrypted cookie points at by id (`sid`), consulted at most once per
 * `session.revalidateAge`. A session whose record is gone (or expired) ends.
 *
 * @see {@link Adapter.listSessionRecords}
 * @see [OpenID Connect Back-Channel Logout 1.0 §2.1](https://openid.net/specs/openid-connect-backchannel-1_0.html#BCRegistration) (`providerSessionId`: the IdP's `sid`)
 */
export interface AdapterSessionRecord {
  /** Random (128 bits), hex; the handle users and apps revoke it by. Unique. */
  id: string
  userId: string
  createdAt: Date
  /** Moved forward at most once a minute (database) or per `revalidateAge` (JWT). */
  lastSeenAt: Date
  expires: Date
  /** The `User-Agent` of the sign-in, at most 256 characters. */
  userAgent: string | null
  /** The network of the sign-in (IPv4 /24, IPv6 /48), when it is known (behind a trusted proxy). */
  ipPrefix: string | null
  /** The provider the user signed in with. */
  provider: string | null
  /** The user's id at that provider (`sub` for OpenID Connect). */
  providerAccountId: string | null
  /** The OpenID provider's session id (`sid` of the ID Token), for back-channel logout. */
  providerSessionId: string | null
}

/**
 * Which session records `deleteSessionRecords` deletes: those matching every
 * field given. At least one of `id`, `userId`, `providerAccountId` or
 * `providerSessionId` is always given.
 *
 * @see {@link Adapter.deleteSessionRecords}
 */
export interface SessionRecordFilter {
  id?: string
  userId?: string
  /** Keeps this one session (sign out every other device). */
  exceptId?: string
  provider?: string
  providerAccountId?: string
  providerSessionId?: string
}

/**
 * New tokens for a stored account (Tessera extension): after a sign-in or a
 * refresh. `null` clears a field; a field left out is kept.
 *
 * @see {@link Adapter.updateAccount}
 * @see [RFC 6749 §6, Refreshing an Access Token](https://www.rfc-editor.org/rfc/rfc6749.html#section-6)
 */
export interface AdapterAccountTokens {
  provider: string
  providerAccountId: string
  access_token?: string | null
  refresh_token?: string | null
  expires_at?: number | null
  id_token?: string | null
  scope?: string | null
  token_type?: string | null
}

/**
 * A single-use e-mail sign-in token. `token` is a keyed hash of the value sent by mail.
 *
 * @see [Auth.js: VerificationToken](https://authjs.dev/reference/core/adapters#verificationtoken)
 */
export interface VerificationToken {
  identifier: string
  expires: Date
  token: string
}

/**
 * A WebAuthn authenticator (passkey) belonging to a user.
 *
 * @see [Auth.js: AdapterAuthenticator](https://authjs.dev/reference/core/adapters#adapterauthenticator)
 * @see [Web Authentication Level 3 §4, credential record](https://www.w3.org/TR/webauthn-3/#credential-record)
 */
export interface AdapterAuthenticator extends Authenticator {
  userId: string
}

/**
 * A user's second factor: a TOTP key (RFC 6238) for an authenticator app.
 * Tessera encrypts the key before the adapter sees it, so `secret` is an
 * opaque string to store as is; recovery codes reach the adapter only as
 * keyed hashes. (Tessera extension.)
 *
 * @see [RFC 6238, TOTP](https://www.rfc-editor.org/rfc/rfc6238.html)
 * @see {@link Adapter.createTwoFactor}
 */
export interface AdapterTwoFactor {
  userId: string
  /** The TOTP key, encrypted with the configuration's secret. */
  secret: string
  /** When the user confirmed the factor with a code; `null` while it is set up but not confirmed. */
  enabledAt: Date | null
  /**
   * The last TOTP time step (30 s counter) a code was accepted for: codes of
   * that step and earlier never work again. `null` before the first.
   */
  lastUsedStep: number | null
}

/**
 * A database adapter: every method is optional; a feature that needs one is refused at
 * configuration time without it (`MissingAdapterMethods`).
 *
 * @see [Auth.js: Adapter](https://authjs.dev/reference/core/adapters#adapter)
 * @see `runAdapterTests` in `@tessera/testing/suites`: the conformance suite every adapter passes
 */
export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  /** Deletes the user and, by cascade, their accounts, sessions, authenticators and second factor. */
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>
  linkAccount?(
    account: AdapterAccount,
  ): Promise<void> | Awaitable<AdapterAccount | null | undefined>
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  createSession?(session: AdapterSession): Awaitable<AdapterSession>
  /** One query (a join): the session and its user, or null. */
  getSessionAndUser?(
    sessionToken: string,
  ): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>
  /**
   * Stores the token; throws when one with the same `identifier` and `token` exists (a unique
   * key): Tessera relies on that to make used passkey challenges, finished two-factor sign-ins
   * and back-channel logout tokens single use.
   */
  createVerificationToken?(
    verificationToken: VerificationToken,
  ): Awaitable<VerificationToken | null | undefined>
  /** Returns the token and deletes it, atomically: a second call with the same token returns null. */
  useVerificationToken?(params: {
    identifier: string
    token: string
  }): Awaitable<VerificationToken | null>
  /**
   * Tessera extension (optional): creates a user and links its first account in
   * one transaction. When two first sign-ins of the same identity race, the loser
   * must get the existing user back (`created: false`), not an error. Without it,
   * Tessera falls back to `createUser` then `linkAccount`.
   */
  createUserAndAccount?(
    user: AdapterUser,
    account: AdapterAccount,
  ): Promise<{ user: AdapterUser; account: AdapterAccount; created: boolean }>
  /**
   * Tessera extension (session management, with the next four methods): stores
   * the record of a JWT session, or, whatever the strategy, of a sign-in waiting
   * for its second factor (`provider: "two-factor:<provider id>"`; no session row,
   * no token).
   * The user may not be a row of the adapter's: a credentials user `authorize`
   * returned (JWT sessions) gets a record all the same. An adapter that cannot
   * keep such a record throws, and that sign-in goes on without one.
   */
  createSessionRecord?(record: AdapterSessionRecord): Awaitable<AdapterSessionRecord>
  /**
   * Tessera extension: moves a live session's `lastSeenAt` (and `expires`, when
   * given) and returns it; null when there is no such session or it has expired.
   * One statement (an `UPDATE ... RETURNING`): this is how a JWT session is revalidated.
   */
  touchSessionRecord?(
    id: string,
    patch: { lastSeenAt: Date; expires?: Date },
  ): Awaitable<AdapterSessionRecord | null>
  /** Tessera extension: the user's live sessions (both strategies), in any order. */
  listSessionRecords?(userId: string): Awaitable<AdapterSessionRecord[]>
  /**
   * Tessera extension (optional): the live record with this id, whatever its
   * user, or null. `revokeSession(config, id)` looks the record up with it, to
   * end only sessions; without it, Tessera looks it up with
   * `touchSessionRecord` (moving its `lastSeenAt`).
   */
  getSessionRecord?(id: string): Awaitable<AdapterSessionRecord | null>
  /**
   * Tessera extension: deletes the sessions (both strategies: database session
   * rows too) matching every field of `filter`, atomically; returns them.
   */
  deleteSessionRecords?(filter: SessionRecordFilter): Awaitable<AdapterSessionRecord[]>
  /** Tessera extension (`getAccessToken`): the accounts linked to a user. */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
  /**
   * Tessera extension: stores new tokens of an account. With `leaseId`, only
   * while that refresh lease (see `leaseAccountRefresh`) still holds the
   * account, and releases it. With `expected`, only while the stored
   * `refresh_token` is still `expected.refresh_token` and, when
   * `expected.access_token` is given (`null`: none stored), the stored
   * `access_token` still that one, in the same atomic write (a
   * compare-and-set: a refresh's outcome never overwrites the tokens a
   * sign-in stored meanwhile; every sign-in and refresh stores a new access
   * token, while a provider may send no new refresh token). An adapter that
   * compares the refresh token alone misses a sign-in that kept it. Returns
   * null when it did not write (or no account).
   */
  updateAccount?(
    tokens: AdapterAccountTokens,
    leaseId?: string,
    expected?: { refresh_token: string; access_token?: string | null },
  ): Awaitable<AdapterAccount | null>
  /**
   * Tessera extension: takes the account's refresh lease until `until`, unless
   * another unexpired lease holds it: one process refreshes a token while the
   * others wait for its result (a row-level guard, so a rotating refresh token
   * is spent once). Returns the account as stored when it took the lease, else null.
   */
  leaseAccountRefresh?(params: {
    provider: string
    providerAccountId: string
    leaseId: string
    until: Date
  }): Awaitable<AdapterAccount | null>
  getAuthenticator?(
    credentialID: AdapterAuthenticator["credentialID"],
  ): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(
    userId: AdapterAuthenticator["userId"],
  ): Awaitable<AdapterAuthenticator[]>
  /**
   * Stores the counter of a verified passkey sign-in and returns the authenticator as stored.
   * Tessera asks (as `@tessera/sql` and the memory adapter do) that it never lower the counter:
   * when the stored one is already higher (a concurrent sign-in with a higher count), it is
   * kept and returned, and Tessera refuses the sign-in (a cloned authenticator). Used only
   * when the adapter has no `swapAuthenticatorCounter`; Tessera then claims the move away from
   * the stored counter as a verification token first, so two sign-ins from one counter cannot
   * both get here.
   */
  updateAuthenticatorCounter?(
    credentialID: AdapterAuthenticator["credentialID"],
    newCounter: AdapterAuthenticator["counter"],
  ): Awaitable<AdapterAuthenticator>
  /**
   * Tessera extension (optional; a compare-and-set): sets the passkey's counter to
   * `newCounter` only if the stored one is still `expected`, atomically (one conditional
   * write, such as `UPDATE ... WHERE credential_id = ? AND counter = ?`, never a read then
   * a write), and says whether it did: false when the counter is no longer `expected` (or
   * there is no such passkey). Of two sign-ins verified against the same stored counter (a
   * cloned authenticator racing the original), exactly one gets true: Tessera refuses the
   * other. With it, Tessera calls it instead of `updateAuthenticatorCounter` on sign-in.
   */
  swapAuthenticatorCounter?(
    credentialID: AdapterAuthenticator["credentialID"],
    expected: AdapterAuthenticator["counter"],
    newCounter: AdapterAuthenticator["counter"],
  ): Awaitable<boolean>
  /**
   * Tessera extension (optional, with the five below: second factors). Stores a
   * new, unconfirmed second factor for `twoFactor.userId` with the hashes of its
   * recovery codes, replacing an unconfirmed one and its codes, in one
   * transaction. When the user has a confirmed factor, writes nothing and
   * returns `null`.
   */
  createTwoFactor?(
    twoFactor: AdapterTwoFactor,
    recoveryCodes: string[],
  ): Awaitable<AdapterTwoFactor | null>
  /** Tessera extension: the user's second factor, confirmed or not, or `null`. */
  getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>
  /**
   * Tessera extension: marks the unconfirmed factor confirmed (`enabledAt`: now),
   * in one conditional write. With `secret`, only if the unconfirmed factor is
   * still the one with that stored `secret` (the key whose code was just checked:
   * another session may have set up a new one meanwhile). Returns it, or `null`
   * when there is none to confirm.
   */
  enableTwoFactor?(userId: string, secret?: string): Awaitable<AdapterTwoFactor | null>
  /**
   * Tessera extension: records that a code of TOTP time step `step` was used,
   * atomically, only if `step` is later than `lastUsedStep`: true if it was, false
   * for a step already used (or an earlier one, or no factor). Of two concurrent
   * uses of one code, exactly one gets true.
   */
  useTwoFactorStep?(userId: string, step: number): Awaitable<boolean>
  /**
   * Tessera extension: deletes the user's recovery code with this hash, atomically:
   * true if there was one (it is used now), false otherwise.
   */
  useRecoveryCode?(userId: string, codeHash: string): Awaitable<boolean>
  /** Tessera extension: deletes the user's second factor and its recovery codes. */
  deleteTwoFactor?(userId: string): Promise<void> | Awaitable<unknown>
}

/**
 * True if the value is a `Date` or a string that parses as an ISO date. Handy in adapters.
 *
 * @param value Any value read from a database.
 * @see [RFC 3339 §5.6, Internet Date/Time Format](https://www.rfc-editor.org/rfc/rfc3339.html#section-5.6)
 */
export function isDate(value: unknown): value is string {
  return (
    typeof value === "string" &&
    !Number.isNaN(Date.parse(value)) &&
    /^\d{4}-\d{2}-\d{2}T/.test(value)
  )
}
