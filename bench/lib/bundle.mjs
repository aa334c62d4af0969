// Bundles the minimal app (bench/lib/apps.mjs: `Auth()` with Credentials and
// GitHub) of either library with esbuild, the way an edge or serverless
// deployment would: ESM for a neutral platform, minified, resolving packages
// with the export conditions Cloudflare's wrangler uses (`workerd`, `worker`,
// `browser`: without them @panva/hkdf, a dependency of Auth.js, resolves to its
// Node build), `node:*` built-ins left external. Shared by
// bench/bundle-size.mjs and the budget test (bench/bundle-size.test.mjs).
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { gzipSync } from "node:zlib"
import { build } from "esbuild"
import { jwtSessionCookie, minimalAppSource } from "./apps.mjs"
import { baselineDir, root } from "./baseline.mjs"
import { packageOf } from "./profile.mjs"

const gzipSize = (text) => gzipSync(text, { level: 9 }).length

/**
 * Resolves `@tessera/core` and its subpaths to the TypeScript sources instead
 * of the built package, so a bundle can be broken down by source module (the
 * built package is a few rollup chunks).
 */
const tesseraSources = {
  name: "tessera-sources",
  setup(build) {
    build.onResolve({ filter: /^@tessera\/core(\/.*)?$/ }, ({ path }) => {
      const sub = path.slice("@tessera/core".length).replace(/^\//, "") || "index"
      const file = join(root, "packages/core/src", `${sub}.ts`)
      return { path: existsSync(file) ? file : join(root, "packages/core/src", sub, "index.ts") }
    })
  },
}

/**
 * Features the minimal app does not use that Tessera's single file holds
 * because a configuration could turn them on (each behind an `import()`), by
 * their source modules (relative to packages/core/src/; what only they import
 * goes with them). All are Tessera's own but e-mail sign-in by link, which
 * Auth.js's file holds too. For `singleFileBundleWithout`.
 */
export const TESSERA_ONLY = {
  "page translations (7 catalogs)": /^pages\/i18n\/locales\/(?!en\.)/,
  "two-factor (steps, QR codes)": /^(two-factor\/(flow|qr)|actions\/two-factor)\./,
  "back-channel logout (jose)": /^actions\/backchannel-logout\./,
  "e-mail sign-in (links: Auth.js too) and codes": /^flows\/email\//,
  "rate limits": /^rate-limit\/(policies|limiter)\./,
  "session management routes, recent sign-in": /^(actions\/sessions|session\/recent-sign-in)\./,
  "Auth.js cookie adoption": /^jwt\/authjs\./,
  "token refresh, OpenID logout": /^flows\/oauth\/(refresh|logout)\./,
}

/** Leaves the source modules matching `patterns` (and what only they import) out, as externals. */
function leaveOut(patterns) {
  return {
    name: "leave-out",
    setup(build) {
      build.onResolve({ filter: /^\./ }, ({ path, importer }) => {
        const file = join(dirname(importer), path).split("/packages/core/src/")[1]
        if (file && patterns.some((pattern) => pattern.test(file))) return { path, external: true }
        return undefined
      })
    },
  }
}

/**
 * One build. `splitting`: ESM chunks, so that what `import()` loads lazily is
 * kept apart from what the entry loads statically. `sources`: Tessera from its
 * TypeScript sources (for a breakdown by module), not from the built package.
 */
async function bundle(
  library,
  {
    splitting = false,
    minify = true,
    external = [],
    sources = false,
    write = false,
    outdir,
    without = [],
  } = {},
) {
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
    plugins:
      sources && library === "tessera"
        ? [tesseraSources, ...(without.length ? [leaveOut(without)] : [])]
        : [],
    outdir: outdir ?? "out",
    entryNames: "app",
    write,
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
 * The single-file bundle: sizes and what each package puts in it.
 * `external`: packages left out (to measure what one dependency and
 * everything only it pulls in weigh).
 */
export async function singleFileBundle(library, { external = [] } = {}) {
  const result = await bundle(library, { external })
  const [file] = result.outputFiles
  const [output] = Object.values(result.metafile.outputs)
  return {
    minified: file.contents.length,
    gzip: gzipSize(file.contents),
    modules: Object.keys(output.inputs).length,
    byPackage: bytesByPackage([output]),
  }
}

/**
 * Tessera's single file (built from the sources) without the features
 * `names` of TESSERA_ONLY: not a build anyone can ship (the app would fail
 * where it needs one), but the size of what is left, to compare with Auth.js.
 */
export async function singleFileBundleWithout(names) {
  const without = names.map((name) => TESSERA_ONLY[name])
  const result = await bundle("tessera", { sources: true, without })
  const [file] = result.outputFiles
  return { minified: file.contents.length, gzip: gzipSize(file.contents) }
}

/**
 * Writes the single-file bundle to `outdir/app.js` (with a package.json making
 * it ESM) and returns its path: what an edge deployment uploads and starts.
 */
export async function writeSingleFileBundle(library, outdir) {
  await bundle(library, { write: true, outdir })
  writeFileSync(join(outdir, "package.json"), '{ "type": "module" }\n')
  return join(outdir, "app.js")
}

/**
 * Tessera's single-file bundle built from the core's sources: the bytes of
 * each source module (by folder of `src/`, and the largest files). The total
 * differs from the published build's by a few hundred bytes (rollup's chunk
 * glue); the shares are what to read.
 */
export async function sourceBreakdown() {
  const result = await bundle("tessera", { sources: true })
  const [output] = Object.values(result.metafile.outputs)
  const own = "/packages/core/src/"
  const files = Object.entries(output.inputs)
    .filter(([path]) => `/${path}`.includes(own))
    .map(([path, { bytesInOutput }]) => ({
      file: `/${path}`.slice(`/${path}`.indexOf(own) + own.length),
      bytes: bytesInOutput,
    }))
  const byFolder = new Map()
  for (const { file, bytes } of files) {
    const parts = file.split("/")
    const folder =
      parts[0] === "flows" && parts.length > 2
        ? `flows/${parts[1]}/`
        : parts.length > 1
          ? `${parts[0]}/`
          : "(top level)"
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + bytes)
  }
  return {
    minified: result.outputFiles[0].contents.length,
    byFolder: [...byFolder]
      .sort((a, b) => b[1] - a[1])
      .map(([folder, bytes]) => ({ folder, bytes })),
    largestFiles: files.sort((a, b) => b.bytes - a.bytes).slice(0, 15),
  }
}

const STEPS = ["import", "session check", "OAuth sign-in"]

/**
 * The split build, written out and run (bench/lib/split-child.mjs under
 * bench/lib/load-recorder.mjs): the files each step loads first. `import` is
 * the entry and the chunks it imports statically; `session check` adds what
 * resolving the configuration loads (each configured provider type's flow,
 * its light part); `OAuth sign-in` adds the sign-in steps (oauth4webapi). The
 * sum is what a cold start that signs someone in with GitHub loads; `all` is
 * every file emitted.
 */
export async function splitBundle(library) {
  const dir = mkdtempSync(join(tmpdir(), `bundle-${library}-`))
  try {
    const outdir = join(dir, "out")
    const result = await bundle(library, { splitting: true, write: true, outdir })
    writeFileSync(join(outdir, "package.json"), '{ "type": "module" }\n')
    const log = join(dir, "loads.log")
    writeFileSync(log, "")
    const child = spawnSync(
      process.execPath,
      [
        "--import",
        pathToFileURL(fileURLToPath(new URL("./load-recorder.mjs", import.meta.url))).href,
        fileURLToPath(new URL("./split-child.mjs", import.meta.url)),
        pathToFileURL(join(outdir, "app.js")).href,
      ],
      {
        encoding: "utf8",
        env: {
          ...process.env,
          BENCH_LOAD_LOG: log,
          BENCH_COOKIE: await jwtSessionCookie(library),
          NODE_OPTIONS: "",
        },
      },
    )
    if (child.status !== 0) throw new Error(`the ${library} split build failed:\n${child.stderr}`)
    const loaded = Object.fromEntries(STEPS.map((step) => [step, []]))
    let step = "import"
    for (const line of readFileSync(log, "utf8").split("\n")) {
      if (line.startsWith("# ")) step = line.slice(2)
      else if (line.startsWith(pathToFileURL(outdir).href) && loaded[step])
        loaded[step].push(fileURLToPath(line))
    }
    const outputs = result.metafile.outputs
    const measure = (paths) => ({
      files: paths.length,
      minified: paths.reduce((sum, path) => sum + readFileSync(path).length, 0),
      gzip: paths.reduce((sum, path) => sum + gzipSize(readFileSync(path)), 0),
      byPackage: bytesByPackage(
        paths.map((path) => outputs[Object.keys(outputs).find((key) => join(root, key) === path)]),
      ),
    })
    const steps = Object.fromEntries(STEPS.map((name) => [name, measure(loaded[name])]))
    const all = Object.keys(outputs)
      .filter((path) => path.endsWith(".js"))
      .map((path) => join(root, path))
    return { steps, all: measure(all) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The app's module graph, unminified: how many modules and source bytes per package. */
export async function moduleCensus(library) {
  const result = await bundle(library, { minify: false, sources: true })
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
