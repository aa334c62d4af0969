/**
 * Every public export of every package is documented the way oauth4webapi documents its API
 * (a description, `@param` per parameter, a `@see`): the rule packages/core/test/public-docs.test.ts
 * holds `@tessera/core` to, here for the others. The entry points are read from each
 * package.json's `exports` (a new entry point is checked without editing this test); what a
 * package re-exports from `@tessera/core` is core's test's to check.
 */
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, test } from "vitest"
import { publicExports, undocumented, type EntryPoint } from "./public-docs.js"

const root = fileURLToPath(new URL("../../", import.meta.url))
const packages = ["express", "hono", "redis", "sql", "sveltekit", "testing"]

/**
 * The sources of a package's entry points: `./dist/x.d.ts` -> `src/x.ts`. Those without a
 * source (`providers`, `providers/*`) are generated re-exports of `@tessera/core`'s.
 */
function entryPoints(name: string): EntryPoint[] {
  const dir = `${root}packages/${name}/`
  const { exports } = JSON.parse(readFileSync(`${dir}package.json`, "utf8")) as {
    exports: Record<string, string | { types?: string }>
  }
  return Object.entries(exports)
    .filter(([key, value]) => !key.includes("*") && typeof value === "object" && value.types)
    .map(([, value]) => {
      const types = (value as { types: string }).types
      return { file: `${dir}${types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts")}` }
    })
    .filter(({ file }) => existsSync(file))
}

describe.each(packages)("@tessera/%s", (name) => {
  const exports = publicExports(entryPoints(name), `${root}packages/${name}/src/`)

  test("has entry points with exports of its own to check", () => {
    expect(exports.length).toBeGreaterThan(0)
  })

  test("every export has a description, @param for each parameter, and a @see", () => {
    expect(undocumented(exports, root)).toEqual([])
  })
})
