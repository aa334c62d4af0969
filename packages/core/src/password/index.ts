/**
 * `@tessera/core/password`: password hashing for credentials sign-in, so an app
 * does not have to pick a KDF, its parameters and a storage format itself.
 *
 * - `hashPassword` writes scrypt (from `node:crypto`, OWASP's parameters) by
 *   default, or argon2id when asked (`{ algorithm: "argon2id" }`, with
 *   `@node-rs/argon2` installed; installing it alone changes nothing); the result is a PHC
 *   string that carries its algorithm, parameters and salt.
 * - `verifyPassword` reads those, argon2i/argon2d, and legacy bcrypt hashes
 *   (with `bcryptjs` or `bcrypt` installed), compares in constant time, and says
 *   when a hash is weaker than the current policy so the app can store a new one
 *   while it has the password in hand.
 * - Passing `null` as the hash (no such user) spends the same time on a decoy,
 *   so the response time does not tell an unknown address from a wrong password.
 *
 * Needs `node:crypto` (Node.js, Bun, Deno), found at run time; the rest of
 * core runs on any runtime.
 *
 * @example
 * ```ts
 * import { hashPassword, verifyPassword } from "@tessera/core/password"
 *
 * // Sign-up
 * const passwordHash = await hashPassword(password)
 *
 * // Sign-in, in a credentials provider's `authorize`
 * const user = await db.users.findByEmail(email)
 * const { valid, needsRehash } = await verifyPassword(user?.passwordHash ?? null, password)
 * if (!user || !valid) return null
 * if (needsRehash) await db.users.update(user.id, { passwordHash: await hashPassword(password) })
 * return user
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html
 * @module
 */
import {
  ARGON2_DEFAULTS,
  ARGON2_VERSION,
  argon2ParamsProblem,
  deriveArgon2,
  parseArgon2,
  type Argon2Params,
  type Argon2Variant,
} from "./argon2.js"
import { isBcryptLike, parseBcrypt, verifyBcrypt, type BcryptHash } from "./bcrypt.js"
import { InvalidPasswordHash } from "./errors.js"
import { normalizePassword, passwordProblem } from "./input.js"
import { bytesEqual, randomBytes } from "./node-crypto.js"
import { formatPhc, type PhcString } from "./phc.js"
import {
  SCRYPT_DEFAULTS,
  deriveScrypt,
  parseScrypt,
  scryptParamsProblem,
  type ScryptParams,
} from "./scrypt.js"

export {
  PasswordError,
  InvalidPassword,
  InvalidPasswordHash,
  MissingPasswordDependency,
  type PasswordErrorType,
} from "./errors.js"
export { MAX_PASSWORD_LENGTH } from "./input.js"
export { SCRYPT_DEFAULTS, type ScryptParams } from "./scrypt.js"
export { ARGON2_DEFAULTS, type Argon2Params } from "./argon2.js"

/**
 * scrypt, the default. Parameters left out take {@link SCRYPT_DEFAULTS}
 * (N = 2^17, r = 8, p = 1). Lower them only in tests: they are the cost of
 * every guess an attacker with your database makes.
 *
 * @see [RFC 7914, The scrypt Password-Based Key Derivation Function](https://www.rfc-editor.org/rfc/rfc7914.html)
 */
export interface ScryptHashOptions extends Partial<ScryptParams> {
  algorithm?: "scrypt"
}

/**
 * argon2id, with the optional peer dependency `@node-rs/argon2`. Parameters
 * left out take {@link ARGON2_DEFAULTS} (m = 19456 KiB, t = 2, p = 1).
 *
 * @see [RFC 9106, Argon2 Memory-Hard Function](https://www.rfc-editor.org/rfc/rfc9106.html)
 */
export interface Argon2idHashOptions extends Partial<Argon2Params> {
  algorithm: "argon2id"
}

/**
 * The hashing policy: what `hashPassword` writes, and what `verifyPassword`
 * compares stored hashes with to answer `needsRehash`. Pass the same options to both.
 *
 * @see [OWASP Password Storage Cheat Sheet](https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html)
 */
export type PasswordHashOptions = ScryptHashOptions | Argon2idHashOptions

/**
 * What `verifyPassword` found.
 *
 * @see [OWASP Password Storage Cheat Sheet](https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html) (upgrading legacy hashes)
 */
export interface PasswordVerification {
  /** The password matches the hash. */
  valid: boolean
  /**
   * The password matches, and the hash is weaker than the policy (an older or
   * cheaper algorithm, lower parameters, a shorter salt or hash): store
   * `await hashPassword(password, options)` in its place now. Always false
   * when `valid` is.
   */
  needsRehash: boolean
}

type Policy =
  | { algorithm: "scrypt"; params: ScryptParams; explicit: boolean }
  | { algorithm: "argon2id"; params: Argon2Params; explicit: true }

type Stored =
  | { algorithm: "scrypt"; phc: PhcString<ScryptParams> }
  | { algorithm: Argon2Variant; phc: PhcString<Argon2Params> & { version: number } }
  | { algorithm: "bcrypt"; bcrypt: BcryptHash }

const SALT_LENGTH = 16
const HASH_LENGTH = 32

function policyOf(options: PasswordHashOptions | undefined): Policy {
  const algorithm = options?.algorithm ?? "scrypt"
  if (algorithm !== "scrypt" && algorithm !== "argon2id")
    throw new TypeError(`Password hashing: unknown algorithm; use "scrypt" or "argon2id"`)
  const defaults: Record<string, number> =
    algorithm === "scrypt" ? SCRYPT_DEFAULTS : ARGON2_DEFAULTS
  const params = { ...defaults }
  for (const [key, value] of Object.entries(options ?? {})) {
    if (key === "algorithm" || value === undefined) continue
    if (!Object.hasOwn(defaults, key))
      throw new TypeError(`Password hashing options: ${key} is not a parameter of ${algorithm}`)
    params[key] = value
  }
  const problem =
    algorithm === "scrypt"
      ? scryptParamsProblem(params as unknown as ScryptParams)
      : argon2ParamsProblem(params as unknown as Argon2Params)
  if (problem) throw new TypeError(`Password hashing options (${algorithm}): ${problem}`)
  return algorithm === "scrypt"
    ? {
        algorithm,
        params: params as unknown as ScryptParams,
        explicit: options?.algorithm === "scrypt",
      }
    : { algorithm, params: params as unknown as Argon2Params, explicit: true }
}

function parseStored(text: unknown): Stored {
  if (typeof text !== "string")
    throw new InvalidPasswordHash("Stored password hash is not a string")
  if (text.startsWith("$scrypt$")) return { algorithm: "scrypt", phc: parseScrypt(text) }
  if (/^\$argon2(id|i|d)\$/.test(text)) {
    const phc = parseArgon2(text)
    return { algorithm: phc.id, phc }
  }
  if (isBcryptLike(text)) return { algorithm: "bcrypt", bcrypt: parseBcrypt(text) }
  // Only a well-formed identifier is echoed; anything else in the string stays out of the message.
  const id = /^\$([a-z0-9-]{1,32})\$/.exec(text)?.[1]
  throw new InvalidPasswordHash(
    id
      ? `Stored password hash ($${id}$) uses an algorithm not verified here (scrypt, argon2, bcrypt)`
      : "Stored password hash is not in a format read here (a PHC string or bcrypt)",
  )
}

/** Hashes `normalized` with the parameters and salt of `stored` and compares, in constant time. */
async function matches(stored: Stored, password: string, normalized: string): Promise<boolean> {
  if (stored.algorithm === "bcrypt") return verifyBcrypt(stored.bcrypt, password, normalized)
  const { salt, hash } = stored.phc
  const bytes = new TextEncoder().encode(normalized)
  const actual =
    stored.algorithm === "scrypt"
      ? await deriveScrypt(bytes, salt, hash.length, stored.phc.params)
      : await deriveArgon2(
          stored.algorithm,
          stored.phc.version,
          bytes,
          salt,
          hash.length,
          stored.phc.params,
        )
  return bytesEqual(actual, hash)
}

const below = <T extends object>(actual: T, wanted: T) =>
  (Object.keys(wanted) as (keyof T)[]).some((key) => actual[key] < wanted[key])

function needsRehash(stored: Stored, policy: Policy): boolean {
  // Algorithms this module reads but never writes.
  if (stored.algorithm === "bcrypt" || stored.algorithm === "argon2i") return true
  if (stored.algorithm === "argon2d") return true
  if (policy.explicit && stored.algorithm !== policy.algorithm) return true
  const { phc } = stored
  if (phc.salt.length < SALT_LENGTH || phc.hash.length < HASH_LENGTH) return true
  if (stored.algorithm === "scrypt")
    return below(phc.params, policy.algorithm === "scrypt" ? policy.params : SCRYPT_DEFAULTS)
  return (
    stored.phc.version !== ARGON2_VERSION ||
    below(phc.params, policy.algorithm === "argon2id" ? policy.params : ARGON2_DEFAULTS)
  )
}

/**
 * Hashes a password for storage, with a fresh random 16-byte salt.
 *
 * The password is NFKC-normalised first, so the forms of one string that
 * Unicode considers equivalent (precomposed or combining accents, full-width
 * letters) all verify. scrypt runs on libuv's thread pool and argon2id on the
 * native library's, so the event loop is not blocked. Each scrypt hash holds
 * 128 MiB while it runs, and libuv runs 4 at a time by default
 * (`UV_THREADPOOL_SIZE`): rate-limit sign-in attempts in front of it.
 *
 * @param password what the user chose: 1 to `MAX_PASSWORD_LENGTH` (1024)
 *   characters of well-formed Unicode; anything else throws `InvalidPassword`
 *   (whose message names the rule, never the password).
 * @param options the algorithm and its parameters; OWASP's scrypt by default.
 * @returns a PHC string, e.g. `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` or
 *   `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` (base64 without padding).
 * @throws `InvalidPassword`; `MissingPasswordDependency` for argon2id without
 *   `@node-rs/argon2`; `TypeError` for options out of bounds.
 *
 * @example
 * ```ts
 * const stored = await hashPassword("correct horse battery staple")
 * const strong = await hashPassword(password, { algorithm: "argon2id" })
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#password-hashing-algorithms
 * @see https://pages.nist.gov/800-63-3/sp800-63b.html#memsecretver (NIST SP 800-63B 5.1.1.2: normalise with NFKC)
 */
export async function hashPassword(
  password: string,
  options?: PasswordHashOptions,
): Promise<string> {
  const policy = policyOf(options)
  const bytes = new TextEncoder().encode(normalizePassword(password))
  const salt = randomBytes(SALT_LENGTH)
  if (policy.algorithm === "scrypt") {
    const hash = await deriveScrypt(bytes, salt, HASH_LENGTH, policy.params)
    return formatPhc({ id: "scrypt", params: { ...policy.params }, salt, hash })
  }
  const { m, t, p } = policy.params
  const hash = await deriveArgon2(
    "argon2id",
    ARGON2_VERSION,
    bytes,
    salt,
    HASH_LENGTH,
    policy.params,
  )
  return formatPhc({
    id: "argon2id",
    version: ARGON2_VERSION,
    params: { m, t, p },
    salt,
    hash,
  })
}

/**
 * Checks a password against a stored hash, in constant time.
 *
 * - A `null` or `undefined` hash means "no such user": a decoy hash with the
 *   policy's parameters is checked instead and the answer is `valid: false`,
 *   so the time taken does not reveal which accounts exist.
 * - A password `hashPassword` would refuse (empty, over-long, not a string)
 *   is answered `valid: false` at once, without hashing: it matches nothing
 *   made here, and its length is the caller's own.
 * - A stored hash this module cannot read throws `InvalidPasswordHash` (a fault
 *   in the data, not a wrong password); its message never contains the hash.
 * - Legacy bcrypt hashes are tried with the password as typed and NFKC-normalised.
 *
 * @param hash the stored hash, or `null`/`undefined` for an unknown user.
 * @param password what the user typed.
 * @param options the current policy, as given to `hashPassword`; it decides
 *   `needsRehash` (and the decoy's cost). Without an `algorithm`, a strong
 *   hash of either scrypt or argon2id is accepted as it is.
 * @returns `{ valid, needsRehash }`; see {@link PasswordVerification}.
 * @throws `InvalidPasswordHash`; `MissingPasswordDependency` for an argon2
 *   hash without `@node-rs/argon2` or a bcrypt hash without `bcryptjs`/`bcrypt`.
 *
 * @example
 * ```ts
 * const { valid, needsRehash } = await verifyPassword(user?.passwordHash, password)
 * ```
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#authentication-and-error-messages
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#upgrading-legacy-hashes
 */
export async function verifyPassword(
  hash: string | null | undefined,
  password: string,
  options?: PasswordHashOptions,
): Promise<PasswordVerification> {
  const policy = policyOf(options)
  const stored = hash == null ? decoyOf(policy) : parseStored(hash)
  if (passwordProblem(password) !== undefined) return { valid: false, needsRehash: false }
  const valid = (await matches(stored, password, password.normalize("NFKC"))) && hash != null
  return { valid, needsRehash: valid && needsRehash(stored, policy) }
}

/** A hash of nothing with the policy's parameters: checking it costs what checking a real one does. */
function decoyOf(policy: Policy): Stored {
  const phc = { salt: randomBytes(SALT_LENGTH), hash: randomBytes(HASH_LENGTH) }
  return policy.algorithm === "scrypt"
    ? { algorithm: "scrypt", phc: { id: "scrypt", ...phc, params: policy.params } }
    : {
        algorithm: "argon2id",
        phc: { id: "argon2id", version: ARGON2_VERSION, ...phc, params: policy.params },
      }
}
