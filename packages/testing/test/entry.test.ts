/**
 * vitest is an optional peer of @tessera/testing: the built main entry must load where
 * vitest cannot be resolved (a demo server, a script), and only `./suites` may need it.
 * Each check runs Node in a child process whose module resolution refuses `vitest`.
 */
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { beforeAll, describe, expect, test } from "vitest"

const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url))

/** A resolve hook that answers `vitest` (and its subpaths) as a package that is not installed. */
const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === "vitest" || specifier.startsWith("vitest/")) {
    const error = new Error("Cannot find package 'vitest' (made unresolvable by the test)")
    error.code = "ERR_MODULE_NOT_FOUND"
    throw error
  }
  return next(specifier, context)
}`
const register = `import { register } from "node:module"
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)})`

/** Imports `file` in a fresh Node without vitest; prints the export names it got. */
function importWithoutVitest(file: string) {
  const script = `const m = await import(${JSON.stringify(dist(file))}); console.log(JSON.stringify(Object.keys(m).sort()))`
  const child = spawnSync(
    process.execPath,
    [
      "--import",
      `data:text/javascript,${encodeURIComponent(register)}`,
      "--input-type=module",
      "-e",
      script,
    ],
    { encoding: "utf8", timeout: 30_000 },
  )
  return { status: child.status, stdout: child.stdout, stderr: child.stderr }
}

describe("@tessera/testing without vitest", () => {
  beforeAll(() => {
    if (!existsSync(dist("index.js")))
      throw new Error("packages/testing/dist is missing: run `npm run build` first")
  })

  test("the main entry loads and exports MemoryAdapter, the mail sink and the OpenID provider", () => {
    const result = importWithoutVitest("index.js")
    expect(result.stderr).not.toMatch(/vitest/)
    expect(result.status).toBe(0)
    const names = JSON.parse(result.stdout) as string[]
    expect(names).toEqual(
      expect.arrayContaining(["MemoryAdapter", "startMailSink", "startOidcProvider", "testUser"]),
    )
    // Exported here too, loading vitest only when a test file calls them.
    expect(names).toContain("runAdapterTests")
    expect(names).toContain("runProviderTests")
  })

  test("the suites need vitest (so the hook above really hides it)", () => {
    const result = importWithoutVitest("suites.js")
    expect(result.status).not.toBe(0)
    expect(result.stderr).toMatch(/Cannot find package 'vitest'/)
  })
})
