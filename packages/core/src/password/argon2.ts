/**
 * Argon2 (RFC 9106) through `@node-rs/argon2`, an optional peer dependency
 * loaded only when an argon2 hash is made or checked. Hashing writes argon2id;
 * verifying also reads argon2i and argon2d hashes (imported from elsewhere),
 * which are then reported as needing a rehash.
 *
 * The PHC string is parsed and written here, not by the library, so every
 * algorithm goes through the same strict parser, bounds and constant-time
 * comparison; the library only computes the raw tag.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9106
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#argon2id
 * @module
 */
import { loadOptional } from "./optional.js"
import { outOfBounds, parsePhc, refuseParams, type PhcString } from "./phc.js"

/**
 * Argon2's cost parameters: m (memory, KiB), t (passes), p (lanes).
 *
 * @see [RFC 9106, Argon2 Memory-Hard Function](https://www.rfc-editor.org/rfc/rfc9106.html)
 */
export type Argon2Params = {
  m: number
  t: number
  p: number
}

/**
 * OWASP's recommended minimum for argon2id: 19 MiB, 2 passes, 1 lane.
 *
 * @see [OWASP Password Storage Cheat Sheet](https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html) (argon2id parameters)
 * @see [RFC 9106, Argon2 Memory-Hard Function](https://www.rfc-editor.org/rfc/rfc9106.html)
 */
export const ARGON2_DEFAULTS: Readonly<Argon2Params> = Object.freeze({ m: 19456, t: 2, p: 1 })

export type Argon2Variant = "argon2d" | "argon2i" | "argon2id"

/** Argon2 1.3 (0x13), the version RFC 9106 specifies; 1.0 (0x10) is read for old hashes. */
export const ARGON2_VERSION = 19

/** Up to 1 GiB, 32 passes and 64 lanes: a stored hash asking for more is refused, not attempted. */
const BOUNDS = { m: [8, 2 ** 20], t: [1, 32], p: [1, 64] } as const

/** Why these parameters are not run here, or `undefined` when they are. */
export function argon2ParamsProblem(params: Argon2Params): string | undefined {
  return (
    outOfBounds({ ...params }, BOUNDS) ??
    (params.m < 8 * params.p ? "m must be at least 8·p (RFC 9106, section 3.1)" : undefined)
  )
}

/** A stored `$argon2id$` (or `$argon2i$`, `$argon2d$`) hash, its parameters checked. */
export function parseArgon2(
  text: string,
): PhcString<Argon2Params> & { id: Argon2Variant; version: number } {
  const phc = parsePhc(text, ["m", "t", "p"])
  const params = phc.params as unknown as Argon2Params
  // No `v=` segment: a hash from before version 1.3 existed.
  const version = phc.version ?? 16
  refuseParams(phc.id, version === 16 || version === 19 ? undefined : "unknown version")
  refuseParams(phc.id, argon2ParamsProblem(params))
  refuseParams(
    phc.id,
    outOfBounds(
      { "salt length": phc.salt.length, "hash length": phc.hash.length },
      { "salt length": [8, 64], "hash length": [4, 64] },
    ),
  )
  return { ...phc, id: phc.id as Argon2Variant, version, params }
}

/** The part of `@node-rs/argon2` used here; typed locally so core's types do not need it. */
interface Argon2Module {
  hashRaw(
    password: Uint8Array,
    options: {
      algorithm: 0 | 1 | 2
      version: 0 | 1
      memoryCost: number
      timeCost: number
      parallelism: number
      outputLen: number
      salt: Uint8Array
    },
  ): Promise<Uint8Array>
}

const ARGON2 = "@node-rs/argon2"
const ALGORITHM = { argon2d: 0, argon2i: 1, argon2id: 2 } as const

/** The raw Argon2 tag of `password`, computed off the event loop by the native library. */
export async function deriveArgon2(
  variant: Argon2Variant,
  version: number,
  password: Uint8Array,
  salt: Uint8Array,
  tagLength: number,
  params: Argon2Params,
): Promise<Uint8Array> {
  const { hashRaw } = await loadOptional<Argon2Module>([ARGON2], variant)
  return hashRaw(password, {
    algorithm: ALGORITHM[variant],
    version: version === 16 ? 0 : 1,
    memoryCost: params.m,
    timeCost: params.t,
    parallelism: params.p,
    outputLen: tagLength,
    salt,
  })
}
