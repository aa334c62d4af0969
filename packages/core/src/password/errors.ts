/**
 * The failures of `@tessera/core/password`, one class each, with a stable
 * `type` to switch on (as `@tessera/core/errors` does for the handler).
 *
 * Messages say which rule was broken and nothing more: never the password, never
 * the stored hash (a hash in a log is an offline guessing target), at most the
 * algorithm identifier a hash starts with.
 * @module
 */

/**
 * The `type` of every error this module throws.
 *
 * @see {@link PasswordError}
 */
export type PasswordErrorType =
  "InvalidPassword" | "InvalidPasswordHash" | "MissingPasswordDependency"

/**
 * The base of this module's errors.
 *
 * @param message What went wrong (never the password or the hash).
 * @param options `cause`, as for `Error`.
 * @see {@link PasswordErrorType}
 */
export class PasswordError extends Error {
  static type: PasswordErrorType = "InvalidPassword"
  /** Identifies the failure in logs and `switch`es. Stable across releases. */
  readonly type: PasswordErrorType

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    const ctor = new.target
    this.name = ctor.name
    this.type = ctor.type
  }
}

/**
 * `hashPassword` was given something it refuses to hash: not a string, empty,
 * longer than `MAX_PASSWORD_LENGTH` (1024), or not well-formed Unicode (a lone
 * surrogate, which UTF-8 cannot carry). Show the message to the user who chose
 * the password; it never contains the password.
 *
 * `verifyPassword` does not throw it: such a password cannot match any hash
 * made here, so it answers `{ valid: false }`.
 *
 * @see [OWASP Password Storage Cheat Sheet](https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html)
 */
export class InvalidPassword extends PasswordError {
  static override type: PasswordErrorType = "InvalidPassword"
}

/**
 * The stored hash handed to `verifyPassword` is not one this module reads:
 * an unknown algorithm, a malformed string, or parameters outside the bounds it
 * accepts (a hash asking for 64 GiB of memory is refused, not attempted).
 *
 * Thrown rather than answered with `{ valid: false }`: it is a fault in the
 * server's data, not a wrong password, and treating it as one would lock the
 * account out silently (and count against the user's rate limit).
 *
 * @see [PHC string format](https://github.com/P-H-C/phc-string-format/blob/master/phc-sf-spec.md)
 */
export class InvalidPasswordHash extends PasswordError {
  static override type: PasswordErrorType = "InvalidPasswordHash"
}

/**
 * An optional peer dependency is needed and could not be loaded:
 * `@node-rs/argon2` for argon2, `bcryptjs` (or `bcrypt`) for legacy bcrypt
 * hashes. The message says what to install; `cause` holds the loader's error.
 *
 * @see [@node-rs/argon2](https://www.npmjs.com/package/@node-rs/argon2)
 */
export class MissingPasswordDependency extends PasswordError {
  static override type: PasswordErrorType = "MissingPasswordDependency"
}
