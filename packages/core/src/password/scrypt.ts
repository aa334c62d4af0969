/**
 * scrypt (RFC 7914) from `node:crypto`: the default, because it is memory-hard
 * and ships with Node, so hashing passwords needs no native add-on.
 *
 * Stored as `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (ln = log2 N), the parameter
 * names other PHC-style scrypt strings use.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7914
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 * @module
 */
import { nodeCrypto } from "./node-crypto.js"
import { outOfBounds, parsePhc, refuseParams, type PhcString } from "./phc.js"

/**
 * scrypt's cost parameters: N = 2^ln (CPU and memory), r (block size), p (parallelism).
 *
 * @see [RFC 7914, The scrypt Password-Based Key Derivation Function](https://www.rfc-editor.org/rfc/rfc7914.html) §2
 */
export type ScryptParams = {
  ln: number
  r: number
  p: number
}

/**
 * OWASP's recommended minimum: N = 2^17, r = 8, p = 1, which takes 128 MiB of
 * memory per hash (and about half a second of one core on a small server).
 *
 * @see [OWASP Password Storage Cheat Sheet](https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html) (scrypt parameters)
 * @see [RFC 7914, The scrypt Password-Based Key Derivation Function](https://www.rfc-editor.org/rfc/rfc7914.html)
 */
export const SCRYPT_DEFAULTS: Readonly<ScryptParams> = Object.freeze({ ln: 17, r: 8, p: 1 })

const BOUNDS = { ln: [1, 24], r: [1, 32], p: [1, 16] } as const

/**
 * The most memory one hash may take (1 GiB), when hashing and when verifying a
 * stored hash: a hash asking for more is refused, not attempted.
 */
const MAX_MEMORY = 2 ** 30

/** The bytes OpenSSL allocates for one scrypt: 128·r·(N + p + 2). */
const memoryOf = ({ ln, r, p }: ScryptParams) => 128 * r * (2 ** ln + p + 2)

/** Why these parameters are not run here, or `undefined` when they are. */
export function scryptParamsProblem(params: ScryptParams): string | undefined {
  return (
    outOfBounds({ ...params }, BOUNDS) ??
    (128 * params.r * 2 ** params.ln > MAX_MEMORY ? "128·r·2^ln must be at most 1 GiB" : undefined)
  )
}

/** A stored `$scrypt$` hash, its parameters checked. */
export function parseScrypt(text: string): PhcString<ScryptParams> {
  const phc = parsePhc(text, ["ln", "r", "p"])
  const params = phc.params as unknown as ScryptParams
  refuseParams("scrypt", phc.version === undefined ? undefined : "scrypt has no versions")
  refuseParams("scrypt", scryptParamsProblem(params))
  refuseParams(
    "scrypt",
    outOfBounds(
      { "salt length": phc.salt.length, "hash length": phc.hash.length },
      { "salt length": [1, 64], "hash length": [16, 64] },
    ),
  )
  return { ...phc, params }
}

/**
 * scrypt on the libuv thread pool, so the event loop keeps running meanwhile.
 * `maxmem` is raised to exactly what the parameters need: Node's default cap
 * (32 MiB) is below OWASP's cost.
 */
export function deriveScrypt(
  password: Uint8Array,
  salt: Uint8Array,
  keyLength: number,
  params: ScryptParams,
): Promise<Uint8Array> {
  const { ln, r, p } = params
  const { scrypt } = nodeCrypto()
  return new Promise((resolve, reject) => {
    scrypt(
      password,
      salt,
      keyLength,
      { N: 2 ** ln, r, p, maxmem: memoryOf(params) },
      (error, key) => (error ? reject(error) : resolve(key)),
    )
  })
}
