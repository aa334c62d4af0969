#!/usr/bin/env node
// Builds every package and the demo, quietly: a step's output is shown only when it fails, or
// when it says something this script does not know to be routine (see NOISE). One line at the end.
//
//   node scripts/build.mjs                  # everything (npm run build; npm test)
//   node scripts/build.mjs --if-changed     # nothing when no input changed since the last build (npm start)
//   node scripts/build.mjs --packages       # the packages only, not the demo (npm run dev: Vite serves the demo)
//
// "Changed" compares a stamp of the inputs (path, size and modification time of every source,
// configuration and lock file) with the one written after the last successful build, and checks
// that the outputs are still there. A build with any option writes the stamps it satisfies.
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const bin = (name) => join(root, "node_modules", ".bin", name)
const stampDir = join(root, "node_modules", ".cache", "tessera-build")

const tscPackages = ["core", "testing", "sql", "redis", "express", "hono"]
const allPackages = [...tscPackages, "sveltekit"]

/**
 * Output lines that are routine, never a problem: dropped when the step succeeds.
 * Anything else a step prints (a new warning) still reaches the terminal.
 */
const NOISE = [
  // svelte-package: its progress line, and a warning for libraries meant for Svelte without
  // SvelteKit. @tessera/sveltekit is a SvelteKit integration (@sveltejs/kit is a peer), so
  // reading `$app/environment` is what it must do.
  /^src -> dist$/,
  /^@sveltejs\/package found the following issues while packaging your library:$/,
  /^Avoid usage of `\$app\/environment` in your code/,
  // SvelteKit's own progress lines around the adapter (Vite's are off: --logLevel warn).
  /^Run npm run preview to preview your production build locally\.$/,
  /^> Using @sveltejs\/adapter-node$/,
  /^✔ done$/,
  // adapter-node bundles the server with Rollup, which reports the chunks SvelteKit made for the
  // lazily imported `$env/dynamic/private` and `$app/environment` as empty once inlined.
  /^Generated an empty chunk: "chunks\/[\w-]+\.js"\.$/,
  // core's bundle step (packages/core/scripts/bundle.mjs): its one summary line.
  /^@tessera\/core: \d+ entry points, \d+ chunks in dist\/$/,
]

const steps = (withDemo) => [
  {
    name: "the passkey script of core's sign-in page",
    command: process.execPath,
    args: [join(root, "packages/core/scripts/embed-webauthn-client.mjs")],
  },
  {
    name: "the TypeScript packages",
    command: bin("tsc"),
    args: ["-b", ...tscPackages.map((name) => join(root, "packages", name))],
    after: () => chmodSync(join(root, "packages/sql/dist/bin.js"), 0o755),
  },
  {
    // tsc writes core's declarations only; rollup bundles its JavaScript (a few chunks, so a
    // cold start loads a handful of files, and each flow's sign-in steps load on first use).
    name: "core's JavaScript (rollup)",
    command: process.execPath,
    args: [join(root, "packages/core/scripts/bundle.mjs")],
  },
  {
    name: "@tessera/sveltekit",
    command: bin("svelte-package"),
    args: ["-i", "src", "-o", "dist"],
    cwd: join(root, "packages/sveltekit"),
  },
  {
    // Auth.js apps import providers through their framework package (`@auth/sveltekit/providers/github`).
    name: "the framework packages' provider re-exports",
    command: process.execPath,
    args: [join(root, "scripts/framework-providers.mjs"), "sveltekit", "express"],
  },
  ...(withDemo
    ? [
        {
          name: "the demo",
          command: bin("vite"),
          args: ["build", "--logLevel", "warn"],
          cwd: join(root, "apps/demo"),
        },
      ]
    : []),
]

const packageInputs = [
  "package-lock.json",
  "tsconfig.base.json",
  ...allPackages.flatMap((name) => [
    `packages/${name}/src`,
    `packages/${name}/package.json`,
    `packages/${name}/tsconfig.json`,
  ]),
  "packages/core/scripts",
  "scripts/framework-providers.mjs",
]

/** What each build target reads, and what it must leave behind. */
const targets = {
  packages: {
    inputs: packageInputs,
    outputs: [
      ...allPackages.map((name) => `packages/${name}/dist/index.js`),
      "packages/express/dist/providers/github.js",
      "packages/sveltekit/dist/providers/github.js",
    ],
  },
  demo: {
    // The demo bundles @tessera/sveltekit: a package that changed is a demo that changed.
    inputs: [
      ...packageInputs,
      "apps/demo/src",
      "apps/demo/static",
      "apps/demo/package.json",
      "apps/demo/svelte.config.js",
      "apps/demo/vite.config.ts",
      "apps/demo/tsconfig.json",
    ],
    outputs: ["apps/demo/build/handler.js"],
  },
}

/** A hash of every input file's path, size and modification time. */
function stampOf(inputs) {
  const hash = createHash("sha256")
  const visit = (path) => {
    let stat
    try {
      stat = statSync(path)
    } catch {
      hash.update(`${relative(root, path)}\0missing\n`)
      return
    }
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry))
    } else {
      hash.update(`${relative(root, path)}\0${stat.size}\0${stat.mtimeMs}\n`)
    }
  }
  for (const input of inputs) visit(join(root, input))
  return hash.digest("hex")
}

const stampFile = (target) => join(stampDir, `${target}.stamp`)

function upToDate(target) {
  const { inputs, outputs } = targets[target]
  if (!outputs.every((output) => existsSync(join(root, output)))) return false
  try {
    return readFileSync(stampFile(target), "utf8") === stampOf(inputs)
  } catch {
    return false
  }
}

function run({ command, args, cwd = root }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    child.stderr.on("data", (chunk) => (output += chunk))
    child.on("error", (error) => resolve({ code: 1, output: `${output}${error.message}\n` }))
    child.on("close", (code) => resolve({ code, output }))
  })
}

/** The lines of `output` that are not routine, or nothing. */
function unexpected(output) {
  const lines = output.split("\n").filter((line) => !NOISE.some((noise) => noise.test(line.trim())))
  return lines.join("\n").trim()
}

const args = process.argv.slice(2)
const ifChanged = args.includes("--if-changed")
const withDemo = !args.includes("--packages")
const wanted = withDemo ? ["packages", "demo"] : ["packages"]

if (ifChanged && wanted.every(upToDate)) {
  console.log("Build up to date: no source changed since the last build.")
  process.exit(0)
}

// Stamps are taken before building: a file edited during the build makes the next check rebuild.
const stamps = Object.fromEntries(wanted.map((target) => [target, stampOf(targets[target].inputs)]))
const started = performance.now()
for (const step of steps(withDemo)) {
  const { code, output } = await run(step)
  if (code !== 0) {
    console.error(output.trim())
    console.error(`\nBuild failed: ${step.name} (exit code ${code}).`)
    process.exit(1)
  }
  const rest = unexpected(output)
  if (rest) console.log(rest)
  step.after?.()
}
mkdirSync(stampDir, { recursive: true })
for (const target of wanted) writeFileSync(stampFile(target), stamps[target])
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(`Built ${withDemo ? "the packages and the demo" : "the packages"} in ${seconds} s.`)
