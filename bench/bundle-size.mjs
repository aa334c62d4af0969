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
// Two builds per library:
// - the single file: everything, lazy imports included (esbuild inlines a
//   dynamic `import()` into a single-file bundle). The target applies here.
// - `splitting: true`, written out and run (bench/lib/split-child.mjs): the
//   files each step loads first: importing the app, its first session check
//   (resolving the configuration loads each configured flow's light part),
//   an OAuth sign-in with GitHub (the sign-in steps and oauth4webapi).
//
// Run: npm run build && node bench/bundle-size.mjs
// Target: Tessera at most 0.6x Auth.js, minified and gzip (single file).
// Exits 1 above it. Writes bench/results/bundle-size.json. The budget test
// (`npm test`) is bench/bundle-size.test.mjs with bench/budget.json.
import { ensureAuthjs } from "./lib/baseline.mjs"
import {
  moduleCensus,
  singleFileBundle,
  singleFileBundleWithout,
  sourceBreakdown,
  splitBundle,
  TESSERA_ONLY,
} from "./lib/bundle.mjs"
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
tessera.sources = await sourceBreakdown()
// What each feature the minimal app does not use weighs in the single file
// (all Tessera's own but e-mail links), and the file without all of them,
// against Auth.js's: to size the 0.6 target against what is left.
const features = Object.keys(TESSERA_ONLY)
const withAll = await singleFileBundleWithout([])
tessera.withoutOwnFeatures = {
  each: await Promise.all(
    features.map(async (name) => {
      const size = await singleFileBundleWithout([name])
      return {
        feature: name,
        minified: withAll.minified - size.minified,
        gzip: withAll.gzip - size.gzip,
      }
    }),
  ),
  all: await singleFileBundleWithout(features),
}

const ratio = (t, a) => ({
  minified: round(t.minified / a.minified, 3),
  gzip: round(t.gzip / a.gzip, 3),
})
/** What the split build has loaded by the end of each step (cumulative). */
function cumulative(split) {
  const out = {}
  let sum = { files: 0, minified: 0, gzip: 0 }
  for (const [step, size] of Object.entries(split.steps)) {
    sum = {
      files: sum.files + size.files,
      minified: sum.minified + size.minified,
      gzip: sum.gzip + size.gzip,
    }
    out[step] = sum
  }
  return out
}
const loaded = { tessera: cumulative(tessera.split), authjs: cumulative(authjs.split) }
const ratios = {
  single: ratio(tessera.single, authjs.single),
  split: Object.fromEntries(
    Object.keys(loaded.tessera).map((step) => [
      step,
      ratio(loaded.tessera[step], loaded.authjs[step]),
    ]),
  ),
  splitAll: ratio(tessera.split.all, authjs.split.all),
}

ratios.singleWithoutOwnFeatures = ratio(tessera.withoutOwnFeatures.all, authjs.single)
writeResult("bundle-size", { versions, target: TARGET, ratios, loaded, builds })

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`
const pair = (size) => `${kb(size.minified)} / ${kb(size.gzip)}`
console.log("Minimal app bundle (esbuild, minified; gzip level 9):")
console.log(
  "                                        Tessera                      Auth.js                      ratio",
)
const row = (label, t, a, r) =>
  console.log(
    `${label.padEnd(39)} ${`${pair(t)} (${t.files ?? 1})`.padEnd(28)} ${`${pair(a)} (${a.files ?? 1})`.padEnd(28)} ${r.minified} / ${r.gzip}`,
  )
row("single file", tessera.single, authjs.single, ratios.single)
for (const step of Object.keys(loaded.tessera))
  row(`split, loaded by: ${step}`, loaded.tessera[step], loaded.authjs[step], ratios.split[step])
row("split, every file emitted", tessera.split.all, authjs.split.all, ratios.splitAll)
console.log("(files in parentheses)")
for (const [library, build] of Object.entries(builds)) {
  console.log(`\n${library}:`)
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
  for (const [step, size] of Object.entries(build.split.steps))
    console.log(
      `  split, ${step.padEnd(14)} loads ${size.files} file(s), ${pair(size)}: ${size.byPackage
        .slice(0, 4)
        .map((entry) => `${entry.package} ${kb(entry.bytes)}`)
        .join(", ")}`,
    )
}
console.log(
  `\n@tessera/core in the single file, by folder of src/ (built from the sources: ${kb(tessera.sources.minified)}):`,
)
for (const { folder, bytes } of tessera.sources.byFolder)
  console.log(`  ${folder.padEnd(50)} ${kb(bytes).padStart(9)}`)
console.log("Largest source modules of @tessera/core in it:")
for (const { file, bytes } of tessera.sources.largestFiles)
  console.log(`  ${file.padEnd(50)} ${kb(bytes).padStart(9)}`)
console.log(
  "\nFeatures the minimal app does not use, in Tessera's single file (bytes it would lose without each, min / gzip):",
)
for (const { feature, minified, gzip } of tessera.withoutOwnFeatures.each)
  console.log(`  ${feature.padEnd(50)} ${pair({ minified, gzip })}`)
const rest = tessera.withoutOwnFeatures.all
const restRatio = ratio(rest, authjs.single)
console.log(
  `Without all of them (not a shippable build): ${pair(rest)}, ${restRatio.minified} / ${restRatio.gzip} of Auth.js's single file.`,
)
const over = ratios.single.minified > TARGET || ratios.single.gzip > TARGET
console.log(`\nTarget: single file at most ${TARGET}x Auth.js: ${over ? "NOT met" : "met"}.`)
if (over) process.exitCode = 1
