#!/usr/bin/env node
// Checks every publishable package as it would be published (after `npm run build`):
//
// - publint --strict: package.json fields against the packed files (exports that point at
//   missing files, wrong condition order, `files` that leave something out, ...).
// - attw --pack (@arethetypeswrong/cli): each entry point resolves to types and JavaScript
//   that agree, under `node16` (ESM) and `bundler` resolution. The packages are ESM only
//   (`"type": "module"`, Node 20.19+), so the CommonJS and node10 modes are not checked
//   (attw's `esm-only` profile).
//
// Usage: node scripts/check-packages.mjs [package ...]   (default: all of them)
import { spawn } from "node:child_process"
import { readdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const bin = (name) => join(root, "node_modules", ".bin", name)

const providerEntries = () =>
  readdirSync(join(root, "packages/core/src/providers"))
    .filter((file) => file.endsWith(".ts") && file !== "index.ts")
    .map((file) => `./providers/${file.slice(0, -3)}`)

/** Per package: extra attw arguments, and why. */
const packages = {
  // `./providers/*` is a wildcard, which attw does not expand: name each provider.
  core: () => ["--include-entrypoints", ...providerEntries()],
  sql: () => [],
  // Components are `.svelte` files: their declarations (`SignIn.svelte.d.ts`) resolve under
  // `bundler` resolution, the only way a Svelte component is consumed (Vite, svelte-check),
  // but not under plain `node16`, which knows no `.svelte` extension.
  sveltekit: () => ["--ignore-rules", "internal-resolution-error"],
  testing: () => [],
  express: () => [],
  hono: () => [],
  redis: () => [],
}

function run(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, FORCE_COLOR: "0" } })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("close", (code) => resolve({ code, output }))
  })
}

async function check(name) {
  const cwd = join(root, "packages", name)
  const publint = await run(bin("publint"), ["--strict"], cwd)
  const attw = await run(
    bin("attw"),
    ["--pack", ".", "--profile", "esm-only", "--format", "table-flipped", ...packages[name]()],
    cwd,
  )
  return { name, publint, attw }
}

const selected = process.argv.slice(2)
const names = selected.length ? selected : Object.keys(packages)
for (const name of names) {
  if (!(name in packages)) {
    console.error(`check:packages: unknown package ${name}`)
    process.exit(2)
  }
}

// Two at a time: each check packs the package twice (npm pack), which is mostly waiting.
const results = []
const queue = [...names]
await Promise.all(
  [0, 1].map(async () => {
    for (let name = queue.shift(); name; name = queue.shift()) results.push(await check(name))
  }),
)

let failed = false
for (const { name, publint, attw } of results.sort((a, b) => a.name.localeCompare(b.name))) {
  const ok = publint.code === 0 && attw.code === 0
  failed ||= !ok
  console.log(`${ok ? "ok  " : "FAIL"} @tessera/${name}`)
  if (publint.code !== 0) console.log(publint.output.trim().replace(/^/gm, "    publint: "))
  if (attw.code !== 0) console.log(attw.output.trim().replace(/^/gm, "    attw: "))
}
console.log(
  failed
    ? "check:packages: some packages would be published broken (see above)"
    : `check:packages: ${results.length} packages pass publint and attw`,
)
process.exit(failed ? 1 : 0)
