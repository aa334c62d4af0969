/**
 * Every public export of `@tessera/core` is documented the way oauth4webapi documents
 * its API: a description, `@param` for each parameter of a function, and at least one
 * `@see` (the RFC or specification section, or the Auth.js counterpart it mirrors).
 * Checked with the TypeScript compiler on the sources of the public entry points:
 * `.`, `./jwt`, `./errors`, `./types`, `./adapters`, `./sessions`, `./password`, `./rate-limit`,
 * `./providers`, and each provider factory. (The rule itself: scripts/test/public-docs.ts.)
 */
import { readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, test } from "vitest"
import { publicExports, undocumented } from "../../../scripts/test/public-docs.js"

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url))

const entries = [
  "index.ts",
  "jwt.ts",
  "errors.ts",
  "types.ts",
  "adapters.ts",
  "sessions.ts",
  "password/index.ts",
  "rate-limit/index.ts",
  "providers/index.ts",
]
const providers = readdirSync(src("providers"))
  .filter((file) => file.endsWith(".ts") && file !== "index.ts")
  .map((file) => `providers/${file}`)

// `index.ts` re-exports `types.ts`: each declaration is checked once.
const unique = publicExports([
  ...entries.map((file) => ({ file: src(file) })),
  ...providers.map((file) => ({ file: src(file), only: "default" })),
])

describe("public API documentation", () => {
  test("the entry points export what this test expects to check", () => {
    expect(unique.length).toBeGreaterThan(100)
    expect(unique.map((e) => e.name)).toEqual(
      expect.arrayContaining(["Auth", "encode", "AuthError", "Session", "Adapter", "default"]),
    )
  })

  test("every export has a description, @param for each parameter, and a @see", () => {
    expect(undocumented(unique, src(""))).toEqual([])
  })
})
