/**
 * Verification of legacy bcrypt hashes (`$2a$`, `$2b$`, `$2y$`), for apps that
 * import users from another system. Tessera never writes bcrypt: it truncates
 * passwords at 72 bytes and is not memory-hard, so a bcrypt hash that verifies
 * is always reported as needing a rehash.
 *
 * The cipher comes from an optional peer dependency, `bcryptjs` (pure
 * JavaScript, installs anywhere) or else `bcrypt` (native), loaded on the first
 * bcrypt hash met. Why not an implementation here: Blowfish's key schedule
 * needs 4 KiB of constant tables and careful handling of the variants' quirks,
 * code that widely used libraries already get right, and only apps migrating
 * from bcrypt need it at all. The library computes the hash; the comparison is
 * done here with `crypto.timingSafeEqual`, as for the other algorithms.
 *
 * @see https://www.usenix.org/legacy/events/usenix99/provos/provos.pdf
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#bcrypt
 * @module
 */
import { InvalidPasswordHash } from "./errors.js"
import { bytesEqual } from "./node-crypto.js"
import { loadOptional } from "./optional.js"
import { outOfBounds, refuseParams } from "./phc.js"

/** A stored bcrypt hash: `$2b$<cost>$<22-character salt><31-character hash>`. */
export interface BcryptHash {
  /**
   * The hash, `$2y$` written `$2b$`: they are the same algorithm (PHP's name
   * and OpenBSD's for the fixed one), and not every library knows `$2y$`.
   * `$2a$` is kept: libraries may still reproduce its historic length bug.
   */
  text: string
  cost: number
}

const BCRYPT = /^\$2([aby])\$([0-9]{2})\$[./A-Za-z0-9]{53}$/

/** Whether `text` looks like any bcrypt-family hash (`$2$`, `$2a$`, `$2x$`, ...). */
export const isBcryptLike = (text: string) => /^\$2[a-z]?\$/.test(text)

/**
 * Parses a bcrypt hash. Costs above 16 (65,536 rounds, seconds per check) are
 * refused: a stored hash should not be able to tie up a thread for minutes.
 * `$2x$` (crypt_blowfish's mode for hashes made by its 8-bit bug) is refused.
 */
export function parseBcrypt(text: string): BcryptHash {
  const match = BCRYPT.exec(text)
  if (!match)
    throw new InvalidPasswordHash(
      "Stored password hash ($2…$) is not a bcrypt hash of the $2a$, $2b$ or $2y$ kind",
    )
  const cost = Number(match[2])
  refuseParams(`2${match[1]}`, outOfBounds({ cost }, { cost: [4, 16] }))
  return { text: match[1] === "y" ? `$2b$${text.slice(4)}` : text, cost }
}

/** The part of `bcryptjs` and `bcrypt` used here (both have it). */
interface BcryptModule {
  hash(password: string, salt: string): Promise<string>
}

/**
 * Whether `password` matches. The password is tried as typed and then, when it
 * differs, in its NFKC form: the system that made the hash most likely did not
 * normalise, and either form is the user's.
 */
export async function verifyBcrypt(
  stored: BcryptHash,
  password: string,
  normalized: string,
): Promise<boolean> {
  const { hash } = await loadOptional<BcryptModule>(
    ["bcryptjs", "bcrypt"],
    "Verifying bcrypt hashes",
  )
  const encoder = new TextEncoder()
  const expected = encoder.encode(stored.text)
  const salt = stored.text.slice(0, 29)
  let valid = false
  for (const form of password === normalized ? [password] : [password, normalized]) {
    if (bytesEqual(encoder.encode(await hash(form, salt)), expected)) valid = true
  }
  return valid
}
