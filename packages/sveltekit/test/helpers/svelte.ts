/**
 * Compiles `.svelte` files for server-side rendering, without a Vite plugin:
 * each component (and every `.svelte` file it imports) is compiled with
 * `svelte/compiler` into a temporary directory, with its imports rewritten to
 * absolute paths, then imported. Render the result with `svelte/server`'s `render`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { basename, dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { Component } from "svelte"
import { compile } from "svelte/compiler"

const require = createRequire(import.meta.url)
const helpers = dirname(fileURLToPath(import.meta.url))
const outDir = mkdtempSync(join(tmpdir(), "tessera-svelte-"))
const compiled = new Map<string, string>()
let counter = 0

function compileFile(file: string): string {
  const known = compiled.get(file)
  if (known) return known
  const out = join(outDir, `${basename(file, ".svelte")}-${counter++}.js`)
  compiled.set(file, out)
  const { js, warnings } = compile(readFileSync(file, "utf8"), {
    generate: "server",
    filename: file,
  })
  if (warnings.length) throw new Error(`${file}: ${warnings.map((w) => w.message).join("; ")}`)
  const code = js.code.replace(
    /(from\s+|import\s+)(["'])([^"']+)\2/g,
    (_match, keyword: string, quote: string, specifier: string) => {
      return `${keyword}${quote}${rewrite(specifier, dirname(file))}${quote}`
    },
  )
  writeFileSync(out, code)
  return out
}

function rewrite(specifier: string, from: string): string {
  if (specifier.startsWith(".")) {
    const target = resolve(from, specifier)
    if (target.endsWith(".svelte")) return pathToFileURL(compileFile(target)).href
    // TypeScript sources are imported with `.js` extensions.
    const ts = target.replace(/\.js$/, ".ts")
    return pathToFileURL(existsSync(target) ? target : ts).href
  }
  // SvelteKit's `$app/<name>` modules exist only inside an app: the tests' own stand-ins.
  const app = /^\$app\/(\w+)$/.exec(specifier)
  if (app) return pathToFileURL(resolve(helpers, `app-${app[1]}.ts`)).href
  return pathToFileURL(require.resolve(specifier)).href
}

/** The component in `file`, ready for `render`. */
export async function loadComponent<Props extends Record<string, any> = Record<string, any>>(
  file: string,
): Promise<Component<Props>> {
  const module = await import(/* @vite-ignore */ compileFile(resolve(file)))
  return module.default as Component<Props>
}

/** Removes the compiled files (call from `afterAll`). */
export function disposeCompiled(): void {
  rmSync(outDir, { recursive: true, force: true })
  compiled.clear()
}
