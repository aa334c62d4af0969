/**
 * What a password must be before it is hashed, and the one form it is hashed in.
 *
 * Passwords are NFKC-normalised: the same password typed on two keyboards (an
 * "é" as one code point or as "e" plus a combining accent, a full-width digit)
 * must give the same hash. NFKC rather than NFC because it also folds
 * compatibility forms that look identical to the user.
 * @module
 */
import { InvalidPassword } from "./errors.js"

/**
 * The longest password accepted, in UTF-16 code units (JavaScript's
 * `string.length`). Long enough for any passphrase or password manager; short
 * enough that the cost of hashing stays the server's choice, not an attacker's.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#maximum-password-lengths
 */
export const MAX_PASSWORD_LENGTH = 1024

/** A UTF-16 surrogate with no partner: UTF-8 cannot encode it, so it would silently become U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * Why `password` cannot be hashed, or `undefined` when it can. The length is
 * checked before anything reads the whole string.
 */
export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== "string") return "The password must be a string"
  if (password.length === 0) return "The password must not be empty"
  if (password.length > MAX_PASSWORD_LENGTH)
    return `The password must be at most ${MAX_PASSWORD_LENGTH} characters long`
  if (LONE_SURROGATE.test(password)) return "The password contains an invalid character"
  return undefined
}

/** The NFKC form of an acceptable password; throws `InvalidPassword` otherwise. */
export function normalizePassword(password: unknown): string {
  const problem = passwordProblem(password)
  if (problem) throw new InvalidPassword(problem)
  return (password as string).normalize("NFKC")
}
