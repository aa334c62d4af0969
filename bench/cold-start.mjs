// Cold start: a fresh `node` process imports a minimal app (`Auth()` with
// Credentials and GitHub) and answers its first `GET /auth/session` with a
// valid JWT session cookie; Tessera (packages/core/dist) against Auth.js
// (@auth/core 0.41.3, installed into bench/.baseline/authjs/ by this script).
//
// Why the baseline is fair: both apps come from one template (bench/lib/apps.mjs)
// with the same configuration; each session cookie is made by that library's
// own `encode` (salt = cookie name) in this process, so the child does nothing
// but import and check; both run on the same Node, with the same environment,
// and same-version jose and oauth4webapi (each library its own copy). Launches
// alternate (Tessera first, then Auth.js first) so that load from other
// processes hits both alike; the figure is the median of the per-pair ratios.
// Times are taken inside the child from just before `import()` (Node's own
// start, ~40-70 ms and the same for both, is reported apart). Each library is
// resolved as an app installed from npm resolves it: from a real folder in a
// node_modules beside the app (Auth.js: bench/.baseline/authjs/node_modules;
// Tessera: a copy of packages/core's package.json and dist, made afresh by
// every run, in bench/.baseline/tessera-installed/node_modules). Through the
// workspace's symlink four folders up, Node's resolver took ~1.8 ms more for
// the app's three `@tessera/core` specifiers than for the same files installed.
//
// Both libraries' totals hold the same work: Node loads undici (~50 ms) for the
// first `Request`; Auth.js's import loads part of what undici needs earlier
// (node:crypto and the streams, through @panva/hkdf's `import "crypto"`), so
// compare import and first check together, not apart. For information, the
// same pairs once more with a `Request` made before the clock starts, as a
// server framework has made one before a library's first check.
//
// Then the same pairs with each library's single-file bundle of the same app
// (bench/lib/bundle.mjs: esbuild, minified, what an edge deployment uploads):
// one file to parse instead of a module graph to resolve, and the file that
// holds Tessera's lazily imported parts too (they are parsed, not run).
//
// Then, to see what Tessera's import costs: each of its dependencies (and
// Auth.js's) imported alone in a fresh process, and `node --cpu-prof`
// profiles of both cold starts summed by package (bench/lib/profile.mjs).
//
// Run: npm run build && node bench/cold-start.mjs [pairs=30] [dependency runs=10] [profiles=10]
// Target: Tessera's import + first check at most 0.5x Auth.js's. Exits 1 above it.
// Writes bench/results/cold-start.json.
import { spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { appDir, ensureAuthjs, root } from "./lib/baseline.mjs"
import { LIBRARIES, TOKEN, jwtSessionCookie, minimalAppSource, writeFiles } from "./lib/apps.mjs"
import { writeSingleFileBundle } from "./lib/bundle.mjs"
import { summarizeProfiles } from "./lib/profile.mjs"
import { median, round, writeResult } from "./lib/stats.mjs"

const PAIRS = Number(process.argv[2] ?? 30)
const DEPENDENCY_RUNS = Number(process.argv[3] ?? 10)
const PROFILES = Number(process.argv[4] ?? 10)
const TARGET = 0.5

if (!existsSync(join(root, "packages/core/dist/index.js"))) {
  console.error("packages/core is not built: run `npm run build` first.")
  process.exit(1)
}
const versions = ensureAuthjs()
const child = fileURLToPath(new URL("./lib/cold-start-child.mjs", import.meta.url))

// A clean environment: no AUTH_* variables for either library to pick up, no
// preloads, no compile cache.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(AUTH_|NODE_OPTIONS$|NODE_COMPILE_CACHE$)/.test(key),
  ),
)

/** Generates `name.mjs` with `source` in `folder` (the library's app folder); returns its URL. */
function moduleFile(library, name, source, folder = library) {
  const dir = appDir(folder, `cold-start-${name}`)
  writeFiles(dir, { "index.mjs": source })
  return pathToFileURL(join(dir, "index.mjs")).href
}

// @tessera/core as `npm install` lays it out (package.json and dist, the files
// an import reads), so that it resolves as Auth.js's does; its lazily imported
// dependencies (jose, oauth4webapi, ...) resolve from the repository's
// node_modules, as before, and no cold start here imports them.
const INSTALLED = "tessera-installed"
const installed = join(appDir(INSTALLED, "node_modules"), "@tessera", "core")
rmSync(installed, { recursive: true, force: true })
mkdirSync(installed, { recursive: true })
cpSync(join(root, "packages/core/package.json"), join(installed, "package.json"))
cpSync(join(root, "packages/core/dist"), join(installed, "dist"), { recursive: true })
const folderOf = (library) => (library === "tessera" ? INSTALLED : library)

const apps = {}
for (const library of Object.keys(LIBRARIES)) {
  apps[library] = {
    url: moduleFile(library, "app", minimalAppSource(library), folderOf(library)),
    cookie: await jwtSessionCookie(library),
  }
}

/** One fresh process; returns the child's figures plus the wall time of the whole process. */
function launch(url, { mode = "", cookie = "", flags = [] } = {}) {
  const started = performance.now()
  const result = spawnSync(process.execPath, [...flags, child, url, mode], {
    env: { ...env, BENCH_COOKIE: cookie },
    encoding: "utf8",
  })
  const wallMs = performance.now() - started
  if (result.status !== 0) throw new Error(`${url} failed:\n${result.stderr}`)
  return { ...JSON.parse(result.stdout), wallMs }
}

const launchApp = (library, flags, mode = "session") =>
  launch(apps[library].url, { mode, cookie: apps[library].cookie, flags })

// Both must answer the same session for the same cookie; Tessera must not
// re-issue the cookie on a plain check (Auth.js does, by design: rolling expiry).
const expectedUser = { name: TOKEN.name, email: TOKEN.email, image: TOKEN.picture }
const setCookies = {}
for (const library of Object.keys(LIBRARIES)) {
  const { response } = launchApp(library)
  if (
    response.status !== 200 ||
    JSON.stringify(response.body.user) !== JSON.stringify(expectedUser) ||
    !response.body.expires
  ) {
    throw new Error(`${library} answered ${response.status} ${JSON.stringify(response.body)}`)
  }
  setCookies[library] = response.setCookie
}
if (setCookies.tessera.length) throw new Error(`Tessera set ${setCookies.tessera} on a check`)

for (let i = 0; i < 3; i++) for (const library of Object.keys(LIBRARIES)) launchApp(library) // page cache

const runs = { tessera: [], authjs: [] }
for (let pair = 0; pair < PAIRS; pair++) {
  const order = pair % 2 ? ["authjs", "tessera"] : ["tessera", "authjs"]
  for (const library of order) runs[library].push(launchApp(library))
  process.stderr.write(`\rcold start: pair ${pair + 1}/${PAIRS}   `)
}
process.stderr.write("\n")

// For information: the same pairs with undici loaded before the clock starts.
const requestFirst = { tessera: [], authjs: [] }
for (let pair = 0; pair < PAIRS; pair++) {
  const order = pair % 2 ? ["authjs", "tessera"] : ["tessera", "authjs"]
  for (const library of order)
    requestFirst[library].push(launchApp(library, [], "session-request-first"))
  process.stderr.write(`\rcold start, Request made first: pair ${pair + 1}/${PAIRS}   `)
}
process.stderr.write("\n")

// The single-file bundles, launched the same way.
const bundleDir = mkdtempSync(join(tmpdir(), "tessera-cold-bundle-"))
const bundled = { tessera: [], authjs: [] }
try {
  const files = {}
  for (const library of Object.keys(LIBRARIES))
    files[library] = pathToFileURL(
      await writeSingleFileBundle(library, join(bundleDir, library)),
    ).href
  const launchBundle = (library) =>
    launch(files[library], { mode: "session", cookie: apps[library].cookie })
  for (const library of Object.keys(LIBRARIES)) {
    const { response } = launchBundle(library)
    if (JSON.stringify(response.body?.user) !== JSON.stringify(expectedUser))
      throw new Error(`${library}'s bundle answered ${JSON.stringify(response.body)}`)
    for (let i = 0; i < 3; i++) launchBundle(library) // page cache
  }
  for (let pair = 0; pair < PAIRS; pair++) {
    const order = pair % 2 ? ["authjs", "tessera"] : ["tessera", "authjs"]
    for (const library of order) bundled[library].push(launchBundle(library))
    process.stderr.write(`\rcold start, single-file bundles: pair ${pair + 1}/${PAIRS}   `)
  }
  process.stderr.write("\n")
} finally {
  rmSync(bundleDir, { recursive: true, force: true })
}

const summary = (list) => ({
  bootMs: round(median(list.map((run) => run.bootMs))),
  importMs: round(median(list.map((run) => run.importMs))),
  importAndFirstCheckMs: round(median(list.map((run) => run.totalMs))),
  firstCheckMs: round(median(list.map((run) => run.totalMs - run.importMs))),
  processWallMs: round(median(list.map((run) => run.wallMs))),
})
const ratio = (field, of = runs) =>
  round(median(of.tessera.map((run, i) => run[field] / of.authjs[i][field])), 2)
const coldStart = {
  tessera: summary(runs.tessera),
  authjs: summary(runs.authjs),
  ratios: {
    importAndFirstCheck: ratio("totalMs"),
    importOnly: ratio("importMs"),
    processWall: ratio("wallMs"),
  },
  requestLoadedFirst: {
    tessera: summary(requestFirst.tessera),
    authjs: summary(requestFirst.authjs),
    ratios: {
      importAndFirstCheck: ratio("totalMs", requestFirst),
      importOnly: ratio("importMs", requestFirst),
      processWall: ratio("wallMs", requestFirst),
    },
  },
  singleFileBundle: {
    tessera: summary(bundled.tessera),
    authjs: summary(bundled.authjs),
    ratios: {
      importAndFirstCheck: ratio("totalMs", bundled),
      importOnly: ratio("importMs", bundled),
      processWall: ratio("wallMs", bundled),
    },
  },
}

// Each dependency alone, in a fresh process, against an empty module (Node's
// floor for one dynamic import). Interleaved like the pairs above.
const dependencies = [
  ["none", "(an empty module)", ""],
  ...["jose", "oauth4webapi", "@simplewebauthn/server", "cookie"].map((name) => [
    "tessera",
    name,
    `import "${name}"\n`,
  ]),
  ...["jose", "oauth4webapi", "preact", "preact-render-to-string", "@panva/hkdf"].map((name) => [
    "authjs",
    name,
    `import "${name}"\n`,
  ]),
  ["tessera", "@tessera/core (index only)", `import "@tessera/core"\n`, INSTALLED],
  ["authjs", "@auth/core (index only)", `import "@auth/core"\n`],
].map(([library, name, source, folder]) => ({
  library,
  name,
  url: moduleFile(library, `dep-${name.replace(/[^a-z0-9]+/gi, "-")}`, source, folder),
  times: [],
}))
for (let i = 0; i < DEPENDENCY_RUNS; i++) {
  const order = i % 2 ? [...dependencies].reverse() : dependencies
  for (const dependency of order) dependency.times.push(launch(dependency.url).importMs)
  process.stderr.write(`\rdependencies: round ${i + 1}/${DEPENDENCY_RUNS}   `)
}
process.stderr.write("\n")
const imports = dependencies.map(({ library, name, times }) => ({
  library,
  module: name,
  importMs: round(median(times)),
}))

// CPU profiles of the cold start (import + first check), summed by package.
const profiles = {}
for (const library of Object.keys(LIBRARIES)) {
  const dir = mkdtempSync(join(tmpdir(), "tessera-cold-prof-"))
  try {
    for (let i = 0; i < PROFILES; i++)
      launchApp(library, ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "100"])
    profiles[library] = summarizeProfiles(dir, PROFILES)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const result = {
  pairs: PAIRS,
  dependencyRuns: DEPENDENCY_RUNS,
  profiles: PROFILES,
  versions,
  authjsSetCookieOnCheck: setCookies.authjs,
  coldStart,
  target: { importAndFirstCheck: TARGET },
  imports,
  cpuProfileByPackage: profiles,
}
writeResult("cold-start", result)

/** The table of one set of pairs: each library's medians, then the ratios. */
function printPairs(title, { tessera, authjs, ratios }, suffix = "") {
  console.log(title)
  console.log("                      import   import + first check   node boot   process wall")
  for (const [label, row] of [
    ["Tessera", tessera],
    ["Auth.js", authjs],
  ]) {
    console.log(
      `${label.padEnd(20)} ${String(row.importMs).padStart(7)}   ${String(row.importAndFirstCheckMs).padStart(20)}   ${String(row.bootMs).padStart(9)}   ${String(row.processWallMs).padStart(12)}`,
    )
  }
  console.log(
    `ratio Tessera/Auth.js ${String(ratios.importOnly).padStart(7)}   ${String(ratios.importAndFirstCheck).padStart(20)}   ${"".padStart(9)}   ${String(ratios.processWall).padStart(12)}${suffix}`,
  )
}
printPairs(
  `Cold start, ${PAIRS} alternating pairs of fresh processes (medians, ms):`,
  coldStart,
  `   (target <= ${TARGET})`,
)
printPairs(
  "\nThe same with a Request made before the clock starts (undici loaded; information):",
  coldStart.requestLoadedFirst,
)
printPairs(
  "\nThe same, each app as its single-file bundle (esbuild, minified):",
  coldStart.singleFileBundle,
)
console.log(`\nEach module alone in a fresh process (median import ms, ${DEPENDENCY_RUNS} runs):`)
for (const row of imports)
  console.log(
    `  ${row.library.padEnd(8)} ${row.module.padEnd(30)} ${String(row.importMs).padStart(7)}`,
  )
for (const [library, profile] of Object.entries(profiles)) {
  console.log(
    `\nCPU profile of ${LIBRARIES[library].label}'s cold start by package (mean of ${PROFILES}, busy ${profile.busyMs} ms):`,
  )
  for (const row of profile.byPackage.slice(0, 10))
    console.log(
      `  ${row.package.padEnd(60)} ${String(row.ms).padStart(7)} ms  ${(row.share * 100).toFixed(0).padStart(3)} %`,
    )
}
if (coldStart.ratios.importAndFirstCheck > TARGET) {
  console.error(
    `\nimport + first check: ${coldStart.ratios.importAndFirstCheck}x Auth.js, target ${TARGET}x`,
  )
  process.exitCode = 1
}
