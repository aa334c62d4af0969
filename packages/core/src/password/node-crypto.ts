/**
 * The two `node:crypto` functions password hashing needs, found at run time
 * through `process.getBuiltinModule` (Node >= 20.16, Bun, Deno) and typed here,
 * as `lib/crypto.ts` does: core is compiled without Node's types, so that code
 * which must run anywhere cannot use Node by accident.
 * @module
 */
import { MissingPasswordDependency } from "./errors.js"

/** The part of `node:crypto` used by this module. */
export interface NodeCrypto {
  scrypt(
    password: Uint8Array,
    salt: Uint8Array,
    keyLength: number,
    options: { N: number; r: number; p: number; maxmem: number },
    callback: (error: Error | null, key: Uint8Array) => void,
  ): void
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean
}

let cached: NodeCrypto | undefined

/** `node:crypto`, or `MissingPasswordDependency` on a runtime without it. */
export function nodeCrypto(): NodeCrypto {
  if (cached) return cached
  const getBuiltinModule = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule
  const module =
    typeof getBuiltinModule === "function"
      ? (getBuiltinModule("node:crypto") as Partial<NodeCrypto> | undefined)
      : undefined
  if (typeof module?.scrypt !== "function" || typeof module.timingSafeEqual !== "function")
    throw new MissingPasswordDependency(
      "@tessera/core/password needs node:crypto (Node.js 20.16 or later, Bun or Deno)",
    )
  return (cached = module as NodeCrypto)
}

/** Constant-time equality of two byte strings; false at once when their lengths differ. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b)
}

/** `length` bytes from the CSPRNG. */
export const randomBytes = (length: number) => crypto.getRandomValues(new Uint8Array(length))
