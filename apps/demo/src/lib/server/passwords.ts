/**
 * Password hashing with scrypt (node:crypto), the memory-hard KDF Node ships.
 *
 * Stored form: `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (salt and hash base64url),
 * so the cost can be raised later without breaking existing hashes.
 * @module
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto"

/** OWASP's recommended minimum for scrypt: N = 2^17, r = 8, p = 1 (128 MiB). */
const COST = { log2N: 17, r: 8, p: 1 }
const KEY_LENGTH = 32
const SALT_LENGTH = 16

function derive(
  password: string,
  salt: Buffer,
  log2N: number,
  r: number,
  p: number,
): Promise<Buffer> {
  const N = 2 ** log2N
  // scrypt needs 128 * N * r bytes; Node's default cap (32 MiB) is below OWASP's cost.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

/** A fresh hash of `password` with its own random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH)
  const key = await derive(password, salt, COST.log2N, COST.r, COST.p)
  return [
    "scrypt",
    COST.log2N,
    COST.r,
    COST.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$")
}

/**
 * Whether `password` matches `stored`. Compares in constant time. A malformed
 * `stored` value never matches.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, log2N, r, p, salt, hash] = stored.split("$")
  if (scheme !== "scrypt" || !log2N || !r || !p || !salt || !hash) return false
  const expected = Buffer.from(hash, "base64url")
  const actual = await derive(
    password,
    Buffer.from(salt, "base64url"),
    Number(log2N),
    Number(r),
    Number(p),
  )
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/**
 * A real hash of a password nobody knows, checked when the e-mail address is
 * unknown so that a wrong address takes as long as a wrong password: the
 * response time must not tell which field was wrong.
 */
let decoy: Promise<string> | undefined
export function decoyHash(): Promise<string> {
  return (decoy ??= hashPassword(randomBytes(32).toString("base64url")))
}
