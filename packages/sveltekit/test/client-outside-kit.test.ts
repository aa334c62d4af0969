/**
 * `@tessera/sveltekit/client` loads and works where SvelteKit's `$app/paths` does not exist (a
 * plain test runner, another bundler): it reads `paths.base` on first use, and falls back to
 * `/auth`. Run in a child Node on the built package, since this suite's Vitest stands in for
 * `$app/paths`.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { expect, test } from "vitest"

const root = fileURLToPath(new URL("../../../", import.meta.url))

test("the client loads without $app/paths and calls /auth", () => {
  const script = `
    globalThis.window = { location: { href: "http://localhost/" } }
    const asked = []
    globalThis.fetch = async (url) => {
      asked.push(String(url))
      return new Response(JSON.stringify({ csrfToken: "t" }), {
        headers: { "content-type": "application/json" },
      })
    }
    const client = await import("@tessera/sveltekit/client")
    await client.getCsrfToken()
    console.log(JSON.stringify(asked))
  `
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    timeout: 30_000,
  })
  expect(child.status, child.stderr).toBe(0)
  expect(JSON.parse(child.stdout.trim())).toEqual(["/auth/csrf"])
})
