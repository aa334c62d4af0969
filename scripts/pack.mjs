#!/usr/bin/env node
// `npm run pack`: installable tarballs of every publishable package, as `npm publish` would
// upload them, for projects that install Tessera before it is on the registry.
//
//   node scripts/pack.mjs [--out <dir>]     (default: packs/ at the repository root)
//
// Builds the packages first when their sources changed, then runs `npm pack` in each package
// with the repository's LICENSE copied in (npm takes a LICENSE from the package's own folder
// only). Prints the tarballs and the `npm install` line for them. The packages depend on each
// other by exact version, so install the ones you use together, in one command.
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, rmSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

/** The publishable packages, in dependency order. */
export const packages = ["core", "sql", "redis", "express", "hono", "sveltekit", "testing"]

const args = process.argv.slice(2)
const outIndex = args.indexOf("--out")
const out = resolve(outIndex === -1 ? join(root, "packs") : (args[outIndex + 1] ?? ""))
if (outIndex !== -1 && !args[outIndex + 1]) {
  console.error("Usage: node scripts/pack.mjs [--out <dir>]")
  process.exit(2)
}

const build = spawnSync(
  process.execPath,
  [join(root, "scripts/build.mjs"), "--if-changed", "--packages"],
  {
    stdio: "inherit",
  },
)
if (build.status !== 0) process.exit(build.status ?? 1)

mkdirSync(out, { recursive: true })
const tarballs = []
for (const name of packages) {
  const dir = join(root, "packages", name)
  const license = join(dir, "LICENSE")
  copyFileSync(join(root, "LICENSE"), license)
  try {
    const result = spawnSync("npm", ["pack", "--json", "--pack-destination", out], {
      cwd: dir,
      encoding: "utf8",
    })
    if (result.status !== 0) {
      console.error(result.stderr.trim())
      console.error(`npm pack failed in packages/${name}`)
      process.exit(1)
    }
    const [{ filename }] = JSON.parse(result.stdout)
    tarballs.push(join(out, filename))
  } finally {
    rmSync(license, { force: true })
  }
}

const kB = (file) => `${(statSync(file).size / 1024).toFixed(0)} kB`
console.log(`Packed ${tarballs.length} packages into ${out}:`)
for (const file of tarballs) console.log(`  ${file.slice(out.length + 1).padEnd(32)} ${kB(file)}`)
console.log(
  `\nIn your project, install the ones you use in one command, e.g.:\n  npm install ${tarballs
    .slice(0, 2)
    .join(" ")}`,
)
