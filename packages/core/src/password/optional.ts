/**
 * Loads an optional peer dependency on first use, so apps that never meet an
 * argon2 or bcrypt hash install neither.
 * @module
 */
import { MissingPasswordDependency } from "./errors.js"

const loaded = new Map<string, Promise<unknown>>()

/**
 * The first of `specifiers` that imports, as its namespace (a CommonJS
 * package's exports are merged in from `default`); throws
 * `MissingPasswordDependency` saying what to install when none does. A failure
 * is not cached: installing the package fixes a running process.
 *
 * The specifiers are variables, not literals, so bundlers and the type checker
 * leave them alone when core is built.
 *
 * @param specifiers package names, most preferred first
 * @param purpose what needs it, for the message ("argon2id hashing")
 */
export async function loadOptional<T>(specifiers: readonly string[], purpose: string): Promise<T> {
  const causes: unknown[] = []
  for (const specifier of specifiers) {
    let module = loaded.get(specifier)
    if (!module) {
      module = import(/* @vite-ignore */ specifier).then((ns: Record<string, unknown>) => {
        const fallback = ns.default
        return typeof fallback === "object" && fallback !== null ? { ...fallback, ...ns } : ns
      })
      loaded.set(specifier, module)
    }
    try {
      return (await module) as T
    } catch (error) {
      loaded.delete(specifier)
      causes.push(error)
    }
  }
  const names = specifiers.map((s) => `"${s}"`).join(" or ")
  throw new MissingPasswordDependency(
    `${purpose} needs the optional peer dependency ${names}, which could not be loaded: npm install ${specifiers[0]}`,
    { cause: causes.length === 1 ? causes[0] : new AggregateError(causes) },
  )
}
