#!/usr/bin/env node
// Checks that package-lock.json names every platform package its dependencies list as
// optional (esbuild's, rollup's, deno's, ...): `npm ci` refuses a lock without them ("Missing:
// @rollup/rollup-darwin-x64@ from lock file"), even on a machine that would skip them.
//
// `npm install` leaves them out when the registry it talks to lacks other platforms' builds
// (a mirror that only holds this machine's). `--fix` then records each one with the platform
// its name says (os, cpu, libc) and no tarball: every machine of another platform skips it,
// and a machine of that platform resolves it from its own registry.
//
//   node scripts/lock-platforms.mjs          # check (npm test)
//   node scripts/lock-platforms.mjs --fix    # add what is missing
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const file = fileURLToPath(new URL("../package-lock.json", import.meta.url))
const lock = JSON.parse(readFileSync(file, "utf8"))
const packages = lock.packages
const OS = ["aix", "android", "darwin", "freebsd", "linux", "netbsd", "openbsd", "openharmony"]
OS.push("sunos", "win32")
const CPU = ["arm", "arm64", "ia32", "loong64", "ppc64", "riscv64", "s390x", "x64"]

/** What a platform package's name says it runs on: `@rollup/rollup-linux-x64-musl`. */
function platformOf(name) {
  const words = name.split("/").pop().split("-")
  const os = words.find((word) => OS.includes(word))
  const cpu = words.find((word) => CPU.includes(word))
  if (!os || !cpu) return undefined
  const musl = words.some((word) => word.startsWith("musl"))
  const gnu = os === "linux" && words.some((word) => word.startsWith("gnu") || word === "glibc")
  return { os, cpu, libc: musl ? "musl" : gnu ? "glibc" : undefined }
}

const missing = []
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    // Hoisted next to its parent, or at the root: where npm puts platform packages.
    const nested = `${path}/node_modules/${name}`
    if (packages[nested] || packages[`node_modules/${name}`]) continue
    missing.push({ name, version, dev: entry.dev === true })
  }
}

if (missing.length === 0) process.exit(0)
if (!process.argv.includes("--fix")) {
  for (const { name, version } of missing)
    console.error(`package-lock.json lacks ${name}@${version}`)
  console.error("npm ci will refuse this lock: run node scripts/lock-platforms.mjs --fix")
  process.exit(1)
}
for (const { name, version, dev } of missing) {
  const platform = platformOf(name)
  if (!platform) throw new Error(`${name}: its name does not say which platform it is for`)
  packages[`node_modules/${name}`] = {
    version,
    cpu: [platform.cpu],
    ...(dev ? { dev: true } : {}),
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    optional: true,
    os: [platform.os],
  }
}
const sorted = Object.keys(packages).sort((a, b) =>
  a === "" ? -1 : b === "" ? 1 : a.localeCompare(b, "en"),
)
lock.packages = Object.fromEntries(sorted.map((key) => [key, packages[key]]))
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n")
console.log(`package-lock.json: recorded ${missing.length} platform packages`)
