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
 * @see [Auth.js: AdapterSession](https://authjs.dev/reference/core/adapters#adaptersession)
 */
export interface AdapterSession {
  sessionToken: string
  userId: string
  expires: Date
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
  getAuthenticator?(
    credentialID: AdapterAuthenticator["credentialID"],
  ): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(
    userId: AdapterAuthenticator["userId"],
  ): Awaitable<AdapterAuthenticator[]>
  updateAuthenticatorCounter?(
    credentialID: AdapterAuthenticator["credentialID"],
    newCounter: AdapterAuthenticator["counter"],
  ): Awaitable<AdapterAuthenticator>
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
   * Tessera extension: marks the unconfirmed factor confirmed (`enabledAt`: now).
   * Returns it, or `null` when there is none to confirm.
   */
  enableTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>
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
