/**
 * Importing any entry point of any `@tessera/*` package runs nothing (issue 15: "no top-level
 * work runs at import"): no timers, no file or network I/O, no hashing, key derivation or random
 * bytes, no `process.getBuiltinModule`, neither in the package's own code nor in a dependency it
 * loads at import. Each entry is imported as an app imports it (by package name, the built
 * `dist/` as published) in a fresh Node whose preload records every such call made while the
 * import runs, with the first frame outside Node's module loader.
 *
 * Not imported: `@tessera/testing/suites`, which is vitest's (it registers tests), and
 * `@tessera/sveltekit/components`, Svelte files a Svelte build compiles. SvelteKit's own
 * `$app/*` and `$env/*` modules, which only a SvelteKit build provides, are stood in for.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, test } from "vitest"

const root = fileURLToPath(new URL("../../", import.meta.url))
const NOT_IMPORTABLE = new Set(["@tessera/testing/suites", "@tessera/sveltekit/components"])

/** Every entry point a package.json exports, plus each of core's provider modules. */
function entries(): string[] {
  const names: string[] = []
  for (const dir of readdirSync(`${root}packages`)) {
    const manifest = JSON.parse(readFileSync(`${root}packages/${dir}/package.json`, "utf8")) as {
      name: string
      exports: Record<string, unknown>
    }
    for (const key of Object.keys(manifest.exports)) {
      if (key.includes("*") || key === "./package.json") continue
      names.push(`${manifest.name}${key.slice(1)}`)
    }
  }
  const providers = readdirSync(`${root}packages/core/src/providers`)
    .filter((file) => file.endsWith(".ts") && file !== "index.ts")
    .map((file) => `@tessera/core/providers/${file.slice(0, -3)}`)
  return [...names, ...providers].filter((name) => !NOT_IMPORTABLE.has(name))
}

/**
 * The preload: wraps what counts as work, and records a call while `globalThis.__importing`
 * is set, with the first stack frame in a file; calls with no such frame are Node's module
 * loader reading the files being imported.
 */
const preload = `
import { createRequire, register, syncBuiltinESMExports } from "node:module"
// SvelteKit's virtual modules ($app/paths, $env/dynamic/private, ...) exist only in a SvelteKit
// build: stand-ins with SvelteKit's export names, so @tessera/sveltekit's entries import here.
const kit = "export const base = ''; export const assets = ''; export const building = false; export const dev = false; export const browser = false; export const env = {}"
const hooks = "export async function resolve(specifier, context, next) {" +
  " if (specifier.startsWith('$app/') || specifier.startsWith('$env/'))" +
  " return { url: 'data:text/javascript,' + encodeURIComponent(" + JSON.stringify(kit) + "), shortCircuit: true };" +
  " return next(specifier, context) }"
register("data:text/javascript," + encodeURIComponent(hooks))
const require = createRequire(${JSON.stringify(root)})
const calls = (globalThis.__calls = [])
function record(label) {
  if (!globalThis.__importing) return
  const frame = new Error().stack.split("\\n").slice(2).find((line) => line.includes("file://") && !line.includes("/import-entries-"))
  if (frame) calls.push(label + " " + frame.trim())
}
function wrap(object, name, label) {
  const original = object[name]
  if (typeof original !== "function" || /^[A-Z]/.test(name)) return
  try {
    object[name] = function (...args) {
      record(label)
      return original.apply(this, args)
    }
  } catch {}
}
for (const name of ["setTimeout", "setInterval", "setImmediate", "fetch"]) wrap(globalThis, name, name)
for (const id of ["node:fs", "node:crypto", "node:net", "node:tls", "node:http", "node:https", "node:child_process", "node:worker_threads", "node:dns"]) {
  const module = require(id)
  for (const name of Object.keys(module)) wrap(module, name, id + " " + name)
}
const fsPromises = require("node:fs/promises")
for (const name of Object.keys(fsPromises)) wrap(fsPromises, name, "node:fs/promises " + name)
for (const name of ["deriveBits", "deriveKey", "importKey", "exportKey", "digest", "encrypt", "decrypt", "sign", "verify", "generateKey", "wrapKey", "unwrapKey"]) {
  const subtle = globalThis.crypto.subtle
  const original = subtle[name].bind(subtle)
  subtle[name] = (...args) => (record("crypto.subtle " + name), original(...args))
}
for (const name of ["getRandomValues", "randomUUID"]) {
  const original = globalThis.crypto[name].bind(globalThis.crypto)
  globalThis.crypto[name] = (...args) => (record("crypto " + name), original(...args))
}
const getBuiltinModule = process.getBuiltinModule
if (getBuiltinModule) process.getBuiltinModule = (id) => (record("process.getBuiltinModule " + id), getBuiltinModule(id))
syncBuiltinESMExports()
`

/**
 * Imports each entry in turn in one fresh Node; what each import did, by entry. The script is a
 * file (so `process.argv[1]` is set, as in an app) under the repository's node_modules, from
 * where `@tessera/*` resolve as an installed app resolves them.
 */
function workAtImport(names: string[]): Record<string, string[]> {
  const dir = `${root}node_modules/.cache/tessera-entry-imports`
  mkdirSync(dir, { recursive: true })
  const script = `${dir}/import-entries-${process.pid}.mjs`
  writeFileSync(
    script,
    `const work = {}
for (const name of ${JSON.stringify(names)}) {
  globalThis.__calls.length = 0
  globalThis.__importing = true
  try {
    await import(name)
  } finally {
    globalThis.__importing = false
  }
  work[name] = [...new Set(globalThis.__calls)]
}
console.log(JSON.stringify(work))
`,
  )
  try {
    const child = spawnSync(
      process.execPath,
      ["--import", `data:text/javascript,${encodeURIComponent(preload)}`, script],
      { cwd: root, encoding: "utf8", timeout: 60_000 },
    )
    expect(child.status, child.stderr).toBe(0)
    return JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Record<string, string[]>
  } finally {
    rmSync(script, { force: true })
  }
}

describe("importing a @tessera/* entry point runs nothing", () => {
  const names = entries()

  test("the entries checked include every package's", () => {
    for (const name of ["core", "express", "hono", "redis", "sql", "sveltekit", "testing"])
      expect(names).toContain(`@tessera/${name}`)
    expect(names).toContain("@tessera/sql/cli")
    expect(names).toContain("@tessera/core/providers/nodemailer")
  })

  test("no timer, I/O, crypto or getBuiltinModule call while any entry is imported", () => {
    const work = workAtImport(names)
    expect(Object.keys(work)).toEqual(names)
    const busy = Object.fromEntries(Object.entries(work).filter(([, calls]) => calls.length > 0))
    expect(busy).toEqual({})
  })

  test("the preload sees work done at import (a module that starts a timer and reads a file)", () => {
    const dir = mkdtempSync(join(tmpdir(), "entry-imports-"))
    try {
      const file = join(dir, "busy.mjs")
      writeFileSync(
        file,
        `import { readFileSync } from "node:fs"\nsetTimeout(() => {}, 1)\nreadFileSync(${JSON.stringify(file)})\n`,
      )
      const [calls] = Object.values(workAtImport([pathToFileURL(file).href]))
      expect(calls).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^setTimeout .*busy\.mjs/),
          expect.stringMatching(/^node:fs readFileSync .*busy\.mjs/),
        ]),
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
