// Bundles the minimal app (bench/lib/apps.mjs: `Auth()` with Credentials and
// GitHub) of either library with esbuild, the way an edge or serverless
// deployment would: one ESM file for a neutral platform, minified, resolving
// packages with the export conditions Cloudflare's wrangler uses (`workerd`,
// `worker`, `browser`: without them @panva/hkdf, a dependency of Auth.js,
// resolves to its Node build), `node:*` built-ins left external. Shared by
// bench/bundle-size.mjs and the budget test (bench/bundle-size.test.mjs).
import { gzipSync } from "node:zlib"
import { build } from "esbuild"
import { minimalAppSource } from "./apps.mjs"
import { baselineDir, root } from "./baseline.mjs"
import { packageOf } from "./profile.mjs"

const gzipSize = (text) => gzipSync(text, { level: 9 }).length

/**
 * One build. `splitting`: ESM chunks, so that what `import()` loads lazily is
 * kept apart from what the entry loads statically.
 */
async function bundle(library, { splitting = false, minify = true, external = [] } = {}) {
  return build({
    stdin: {
      contents: minimalAppSource(library),
      // Auth.js resolves from its install in bench/.baseline/authjs/, Tessera
      // from the repository (packages/core/dist, as published).
      resolveDir: library === "authjs" ? baselineDir : root,
      sourcefile: `${library}-app.mjs`,
      loader: "js",
    },
    absWorkingDir: root,
    bundle: true,
    minify,
    splitting,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
    external: ["node:*", ...external],
    outdir: "out",
    write: false,
    metafile: true,
    logLevel: "silent",
  })
}

/** Bytes in the output, by package: [{ package, bytes }] (largest first). */
function bytesByPackage(outputs) {
  const totals = new Map()
  for (const output of outputs) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(`/${path}`) ?? path
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput)
    }
  }
  return [...totals].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => ({ package: name, bytes }))
}

/**
 * The single-file bundle: sizes, what each package puts in it, and its largest
 * files of the library's own. `external`: packages left out (to measure what
 * one dependency and everything only it pulls in weigh).
 */
export async function singleFileBundle(library, { external = [] } = {}) {
  const result = await bundle(library, { external })
  const [file] = result.outputFiles
  const [output] = Object.values(result.metafile.outputs)
  const own = library === "authjs" ? "/@auth/core/" : "/packages/core/dist/"
  const ownFiles = Object.entries(output.inputs).filter(([path]) => `/${path}`.includes(own))
  const byFolder = new Map()
  for (const [path, { bytesInOutput }] of ownFiles) {
    const rest = `/${path}`.slice(`/${path}`.indexOf(own) + own.length).split("/")
    const folder = rest.length > 1 ? `${rest[0]}/` : "(top level)"
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + bytesInOutput)
  }
  return {
    minified: file.contents.length,
    gzip: gzipSize(file.contents),
    modules: Object.keys(output.inputs).length,
    byPackage: bytesByPackage([output]),
    ownByFolder: [...byFolder]
      .sort((a, b) => b[1] - a[1])
      .map(([folder, bytes]) => ({ folder, bytes })),
    largestOwnFiles: ownFiles
      .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
      .slice(0, 12)
      .map(([path, { bytesInOutput }]) => ({
        file: path.slice(path.indexOf(own.slice(1))),
        bytes: bytesInOutput,
      })),
  }
}

/**
 * The split build: the entry chunk and every chunk it imports statically (what
 * loads before the app's first line runs), against everything emitted.
 */
export async function splitBundle(library) {
  const result = await bundle(library, { splitting: true })
  const outputs = result.metafile.outputs
  const files = new Map(result.outputFiles.map((file) => [file.path.slice(root.length), file]))
  const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint)
  const staticClosure = new Set()
  const visit = (path) => {
    if (staticClosure.has(path)) return
    staticClosure.add(path)
    for (const { path: next, kind } of outputs[path].imports)
      if (kind === "import-statement" && outputs[next]) visit(next)
  }
  visit(entry)
  const measure = (paths) => {
    const list = [...paths].filter((path) => path.endsWith(".js"))
    return {
      files: list.length,
      minified: list.reduce((sum, path) => sum + files.get(path).contents.length, 0),
      gzip: list.reduce((sum, path) => sum + gzipSize(files.get(path).contents), 0),
    }
  }
  return {
    entryStatic: {
      ...measure(staticClosure),
      byPackage: bytesByPackage([...staticClosure].map((path) => outputs[path])),
    },
    all: measure(Object.keys(outputs)),
  }
}

/** The app's module graph, unminified: how many modules and source bytes per package. */
export async function moduleCensus(library) {
  const result = await bundle(library, { minify: false })
  const totals = new Map()
  for (const [path, { bytes }] of Object.entries(result.metafile.inputs)) {
    const name = packageOf(`/${path}`) ?? path
    const entry = totals.get(name) ?? { package: name, modules: 0, bytes: 0 }
    entry.modules += 1
    entry.bytes += bytes
    totals.set(name, entry)
  }
  return [...totals.values()].sort((a, b) => b.bytes - a.bytes)
}
