/**
 * The packaging rules of the architecture issue (#10), held by a test so they stay: every
 * package says it has no side effects (bundlers may drop what an app does not import);
 * `@simplewebauthn/browser` is only a build-time dependency of core (its script is embedded in
 * the sign-in page, never imported at run time); `MemoryAdapter` lives in `@tessera/testing`,
 * not in `@tessera/core/adapters`; and `npm test` runs the package checks (publint, attw) and
 * the formatter and linter.
 */
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, test } from "vitest"
import * as coreAdapters from "@tessera/core/adapters"
import * as testing from "@tessera/testing"

const root = fileURLToPath(new URL("../../", import.meta.url))
interface Manifest {
  sideEffects?: unknown
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  scripts: Record<string, string>
}
const manifest = (path: string) =>
  JSON.parse(readFileSync(`${root}${path}/package.json`, "utf8")) as Manifest
const packages = readdirSync(`${root}packages`)

/** Every `.ts`/`.js` file under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(ts|js|mjs)$/.test(file))
    .map((file) => `${dir}/${file}`)
}

describe("package habits", () => {
  test.each(packages)("@tessera/%s declares sideEffects: false", (name) => {
    expect(manifest(`packages/${name}`).sideEffects).toBe(false)
  })

  test("@simplewebauthn/browser is a build-time dependency of core only", () => {
    const core = manifest("packages/core")
    expect(core.devDependencies).toHaveProperty("@simplewebauthn/browser")
    expect(core.dependencies ?? {}).not.toHaveProperty("@simplewebauthn/browser")
    expect(core.peerDependencies ?? {}).not.toHaveProperty("@simplewebauthn/browser")
    // Nothing in core's sources imports it: the generated script embeds it as text.
    const importer = /(from\s+|import\s*\(\s*)["']@simplewebauthn\/browser["']/
    const importing = sources(`${root}packages/core/src`).filter((file) =>
      importer.test(readFileSync(file, "utf8")),
    )
    expect(importing).toEqual([])
  })

  test("MemoryAdapter is in @tessera/testing, not in @tessera/core/adapters", () => {
    expect(coreAdapters).not.toHaveProperty("MemoryAdapter")
    expect(testing.MemoryAdapter).toBeTypeOf("function")
  })

  test("npm test runs the linter, the formatter check and the package checks", () => {
    const { scripts } = manifest(".")
    expect(scripts.test).toMatch(/npm run lint\b/)
    expect(scripts.test).toMatch(/npm run check:packages\b/)
    expect(scripts.lint).toMatch(/prettier --check/)
    expect(scripts.lint).toMatch(/eslint/)
    expect(scripts["check:packages"]).toMatch(/check-packages\.mjs/)
  })
})
