#!/usr/bin/env node
// Runs core's runtime smoke checks (packages/core/test/runtimes/auth-smoke.mjs: credentials
// sign-in, session, CSRF, JWT, OAuth 2 and OpenID Connect sign-ins) on every JavaScript
// runtime it finds: Node (this one), Bun and Deno. Bun and Deno come from npm as dev
// dependencies (`bun`, `deno`: each ships its binary in a platform package); a runtime
// that is not installed is skipped with a message. Needs `npm run build` first.
import { spawnSync } from "node:child_process"
import { accessSync, constants } from "node:fs"
import { delimiter, dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const script = join(root, "packages/core/test/runtimes/auth-smoke.mjs")

/** The runtime's binary: node_modules/.bin first, then PATH. */
function find(name) {
  const dirs = [join(root, "node_modules", ".bin"), ...(process.env.PATH ?? "").split(delimiter)]
  for (const dir of dirs) {
    const file = join(dir, name)
    try {
      accessSync(file, constants.X_OK)
      return file
    } catch {}
  }
  return undefined
}

const runtimes = [
  { name: "node", bin: process.execPath, args: [script] },
  { name: "bun", bin: find("bun"), args: [script] },
  // Deno resolves `@tessera/core` and `jose` from node_modules (package.json present).
  { name: "deno", bin: find("deno"), args: ["run", "--allow-read", "--allow-env", script] },
]

let failed = 0
let ran = 0
for (const { name, bin, args } of runtimes) {
  if (!bin) {
    console.log(`runtime ${name}: skipped, not installed (npm install adds it as a dev dependency)`)
    continue
  }
  console.log(`runtime ${name}: ${bin}`)
  const result = spawnSync(bin, args, {
    cwd: root,
    stdio: "inherit",
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
  })
  ran++
  if (result.status !== 0) {
    failed++
    console.log(`runtime ${name}: FAILED (${result.error?.message ?? `exit ${result.status}`})`)
  }
}
console.log(`runtimes: ${ran - failed} of ${ran} passed the smoke checks`)
process.exit(failed ? 1 : 0)
