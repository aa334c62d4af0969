// Bundle size: the minimal app (`Auth()` with Credentials and GitHub) bundled
// by esbuild for Tessera and for Auth.js (@auth/core 0.41.3, installed into
// bench/.baseline/authjs/ by this script), minified and gzip (level 9).
//
// Why the baseline is fair: both apps come from one template
// (bench/lib/apps.mjs) and go through the same esbuild options
// (bench/lib/bundle.mjs: bundle, minify, ESM, platform "neutral", the export
// conditions of Cloudflare's wrangler, `node:*` external). Sizes do not
// depend on machine load, so one build each is enough.
//
// Two builds per library: the single file (everything, lazy imports included),
// and an ESM build with `splitting: true`, of which the entry chunk plus the
// chunks it imports statically is what a cold start must load before the
// app's first line runs (what `import()` defers is listed apart).
//
// Run: npm run build && node bench/bundle-size.mjs
// Target: Tessera at most 0.6x Auth.js, minified and gzip. Exits 1 above it.
// Writes bench/results/bundle-size.json. The budget test (`npm test`) is
// bench/bundle-size.test.mjs with bench/budget.json.
import { ensureAuthjs } from "./lib/baseline.mjs"
import { moduleCensus, singleFileBundle, splitBundle } from "./lib/bundle.mjs"
import { round, writeResult } from "./lib/stats.mjs"

const TARGET = 0.6
const versions = ensureAuthjs()

const builds = {}
for (const library of ["tessera", "authjs"]) {
  builds[library] = {
    single: await singleFileBundle(library),
    split: await splitBundle(library),
    census: await moduleCensus(library),
  }
}
const { tessera, authjs } = builds
// What @simplewebauthn/server and everything only it pulls in (its ASN.1 and
// X.509 stack) add to Tessera's bundle: the same build with it left external.
const withoutWebauthn = await singleFileBundle("tessera", { external: ["@simplewebauthn/server"] })
tessera.webauthnStack = {
  minified: tessera.single.minified - withoutWebauthn.minified,
  gzip: tessera.single.gzip - withoutWebauthn.gzip,
  restMinified: withoutWebauthn.minified,
  restGzip: withoutWebauthn.gzip,
}
const ratios = {
  single: {
    minified: round(tessera.single.minified / authjs.single.minified, 3),
    gzip: round(tessera.single.gzip / authjs.single.gzip, 3),
  },
  entryStatic: {
    minified: round(tessera.split.entryStatic.minified / authjs.split.entryStatic.minified, 3),
    gzip: round(tessera.split.entryStatic.gzip / authjs.split.entryStatic.gzip, 3),
  },
}
writeResult("bundle-size", { versions, target: TARGET, ratios, builds })

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`
console.log("Minimal app bundle (esbuild, minified; gzip level 9):")
console.log("                                   Tessera                 Auth.js             ratio")
const row = (label, t, a, r) =>
  console.log(
    `${label.padEnd(34)} ${`${kb(t.minified)} / ${kb(t.gzip)}`.padEnd(23)} ${`${kb(a.minified)} / ${kb(a.gzip)}`.padEnd(19)} ${r.minified} / ${r.gzip}`,
  )
row("single file (min / gzip)", tessera.single, authjs.single, ratios.single)
row(
  "split: entry + static imports",
  tessera.split.entryStatic,
  authjs.split.entryStatic,
  ratios.entryStatic,
)
for (const [library, build] of Object.entries(builds)) {
  console.log(
    `\n${library}: split build emits ${build.split.all.files} file(s), ${kb(build.split.all.minified)} in all; the entry loads ${build.split.entryStatic.files} statically`,
  )
  console.log(
    "  bytes in the single file by package          module graph (unminified): modules, bytes",
  )
  const census = new Map(build.census.map((entry) => [entry.package, entry]))
  for (const { package: name, bytes } of build.single.byPackage.slice(0, 14)) {
    const source = census.get(name)
    console.log(
      `  ${name.padEnd(36)} ${kb(bytes).padStart(9)}    ${String(source?.modules ?? "").padStart(4)} ${source ? kb(source.bytes).padStart(9) : ""}`,
    )
  }
}
console.log(
  `\nTessera without @simplewebauthn/server and what only it pulls in: ${kb(tessera.webauthnStack.restMinified)} / ${kb(tessera.webauthnStack.restGzip)} (that stack: ${kb(tessera.webauthnStack.minified)} / ${kb(tessera.webauthnStack.gzip)}); ratio ${round(tessera.webauthnStack.restMinified / authjs.single.minified, 3)} / ${round(tessera.webauthnStack.restGzip / authjs.single.gzip, 3)}`,
)
console.log("@tessera/core in the bundle, by folder of dist/:")
for (const { folder, bytes } of tessera.single.ownByFolder)
  console.log(`  ${folder.padEnd(50)} ${kb(bytes).padStart(9)}`)
console.log("Largest files of @tessera/core in the bundle:")
for (const { file, bytes } of tessera.single.largestOwnFiles)
  console.log(`  ${file.padEnd(50)} ${kb(bytes).padStart(9)}`)
const over = ratios.single.minified > TARGET || ratios.single.gzip > TARGET
console.log(`\nTarget: at most ${TARGET}x Auth.js: ${over ? "NOT met" : "met"}.`)
if (over) process.exitCode = 1
