/**
 * The PHC string format: `$<id>[$v=<version>][$<name>=<value>,...][$<salt>[$<hash>]]`,
 * salt and hash in base64 without padding. Every hash this module writes carries
 * its algorithm and parameters, so the defaults can be raised later and old
 * hashes still verify (and are reported as needing a rehash).
 *
 * Parsing is strict: anything this module would not have written the same way
 * (padding, characters outside the alphabet, leading zeros, duplicate
 * parameters) is refused, so one stored hash has one meaning.
 *
 * @see https://github.com/P-H-C/phc-string-format/blob/master/phc-sf-spec.md
 * @module
 */
import { InvalidPasswordHash } from "./errors.js"

/** A parsed PHC string. */
export interface PhcString<Params = Record<string, number>> {
  id: string
  /** The `v=` segment's value, when there is one. */
  version?: number
  params: Params
  salt: Uint8Array
  hash: Uint8Array
}

const B64 = /^[A-Za-z0-9+/]*$/
const DECIMAL = /^(0|[1-9][0-9]{0,9})$/
const NAME = /^[a-z0-9-]{1,32}$/

/** Standard base64 without padding, as PHC says. (Salts and hashes are short: no need for speed.) */
export function b64encode(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/=+$/, "")
}

/** The bytes of canonical unpadded base64, or `undefined`. */
function b64decode(text: string): Uint8Array | undefined {
  if (!B64.test(text) || text.length % 4 === 1) return undefined
  const bytes = Uint8Array.from(atob(text + "=".repeat((4 - (text.length % 4)) % 4)), (c) =>
    c.charCodeAt(0),
  )
  // Non-zero trailing bits decode to the same bytes as zero ones: refuse them.
  return b64encode(bytes) === text ? bytes : undefined
}

/** `$id$v=19$a=1,b=2$salt$hash`, with parameters in the order given. */
export function formatPhc(phc: PhcString<object>): string {
  const parts = ["", phc.id]
  if (phc.version !== undefined) parts.push(`v=${phc.version}`)
  const params = Object.entries(phc.params as Record<string, number>).map(
    ([name, value]) => `${name}=${value}`,
  )
  if (params.length > 0) parts.push(params.join(","))
  parts.push(b64encode(phc.salt), b64encode(phc.hash))
  return parts.join("$")
}

/**
 * Parses a PHC string with a salt and a hash, whose parameters are exactly
 * `names` (in any order). Throws `InvalidPasswordHash` naming the algorithm and
 * the problem, never the string.
 */
export function parsePhc(text: string, names: readonly string[]): PhcString {
  const parts = text.split("$")
  const id = parts[1] ?? ""
  const fail = (problem: string): never => {
    // The identifier is echoed only when it is one; nothing else of the string ever is.
    const label = NAME.test(id) ? `($${id}$) ` : ""
    throw new InvalidPasswordHash(`Stored password hash ${label}${problem}`)
  }
  if (parts[0] !== "" || !NAME.test(id)) fail("is not a PHC string")
  let index = 2
  let version: number | undefined
  if (parts[index]?.startsWith("v=")) {
    const value = parts[index]!.slice(2)
    if (!DECIMAL.test(value)) fail("has a malformed version")
    version = Number(value)
    index++
  }
  const params: Record<string, number> = {}
  for (const pair of (parts[index++] ?? "").split(",")) {
    const [name = "", value = "", extra] = pair.split("=")
    if (extra !== undefined || !names.includes(name)) fail(`has an unexpected parameter`)
    if (!DECIMAL.test(value)) fail(`has a malformed value for ${name}`)
    if (Object.hasOwn(params, name)) fail(`repeats ${name}`)
    params[name] = Number(value)
  }
  for (const name of names) if (!Object.hasOwn(params, name)) fail(`has no ${name} parameter`)
  if (parts.length !== index + 2) fail("does not end with a salt and a hash")
  const salt = b64decode(parts[index]!) ?? fail("has a salt that is not base64 without padding")
  const hash = b64decode(parts[index + 1]!) ?? fail("has a hash that is not base64 without padding")
  return { id, ...(version === undefined ? {} : { version }), params, salt, hash }
}

/**
 * The first parameter outside its bounds, as a sentence, or `undefined`.
 * `bounds` maps each name to `[min, max]`.
 */
export function outOfBounds(
  values: Record<string, number>,
  bounds: Record<string, readonly [number, number]>,
): string | undefined {
  for (const [name, [min, max]] of Object.entries(bounds)) {
    const value = values[name]
    if (!(Number.isInteger(value) && value! >= min && value! <= max))
      return `${name} must be an integer from ${min} to ${max}`
  }
  return undefined
}

/** Throws `InvalidPasswordHash` for a stored hash whose parameters break `problem`. */
export function refuseParams(id: string, problem: string | undefined): void {
  if (problem)
    throw new InvalidPasswordHash(`Stored password hash ($${id}$) is not verified here: ${problem}`)
}
