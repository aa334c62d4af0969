// A signed-in page over HTTP: a SvelteKit app (adapter-node, SSR) with one page
// whose root layout returns `{ session: await locals.auth() }` (variant A),
// against the same app whose layout returns that same session object as a
// constant (variant B: the library's hook still runs, nothing reads the
// session). A/B is what reading the session adds to a page. Built for:
//
//   Tessera, JWT session        target A/B <= 1.10
//   Tessera, database session   target A/B <= 1.25 (SQLite through @tessera/sql)
//   Auth.js, JWT and database   for comparison (@auth/sveltekit 1.11.3, installed
//                               into bench/.baseline/authjs/; its database
//                               sessions use the same @tessera/sql adapter)
//   no library at all           the page alone (no hook), a floor for all
//
// Why the baseline is fair: every app comes from one template
// (bench/lib/apps.mjs: same page, same providers, same secret, same adapter);
// each session cookie is made by its library's own `encode` or stored in the
// way its library reads it (Tessera hashes database tokens, Auth.js does not);
// B's constant is what A's layout returned (read from A's `__data.json`), and
// the script checks that both pages show the signed-in user before timing.
// autocannon (10 connections, loopback) measures each pair in ABBA order in
// every round; the figures are medians over rounds of the server's CPU time
// per request (from /proc/<pid>/stat: a busy neighbour barely moves it) and of
// requests per second, and the A/B ratios are medians of per-round ratios.
//
// Then CPU profiles (V8's sampling profiler through node:inspector, only while
// autocannon runs) of Tessera's JWT pair, Tessera's database A and Auth.js's
// JWT A, by package and per request (each package's share of the samples times
// the variant's measured CPU per request), to show what A adds.
//
// Run: npm run build && node bench/sveltekit-page.mjs [rounds=8] [seconds per run=1]
// Builds nine apps into bench/.baseline/ (about 2 minutes; a rerun rebuilds
// only those whose sources or SvelteKit integration changed), then measures
// (about 5 minutes). Exits 1 when a Tessera target is missed.
// Writes bench/results/sveltekit-page.json.
import { spawn, spawnSync } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import { unflatten } from "devalue"
import { SqlAdapter } from "../packages/sql/dist/index.js"
import { LIBRARIES, TOKEN, jwtSessionCookie, kitAppFiles, writeFiles } from "./lib/apps.mjs"
import { appDir, baselineDir, ensureAuthjs, root } from "./lib/baseline.mjs"
import { addProfile } from "./lib/profile.mjs"
import { whenReady } from "./lib/server.mjs"
import { cpuMicros, median, round, writeResult } from "./lib/stats.mjs"

const ROUNDS = Number(process.argv[2] ?? 8)
const SECONDS = Number(process.argv[3] ?? 1)
const CONNECTIONS = 10
/**
 * Load on each server before the rounds. A fresh server under this load needs
 * about 7 s to settle (its CPU per request falls from ~4 ms to ~0.75 ms as V8
 * optimizes, and the compiler threads' CPU counts against it): a shorter
 * warm-up tilts the first rounds.
 */
const WARM_UP_SECONDS = 8
const PROFILE_SECONDS = 8
const TARGETS = { "tessera-jwt": 1.1, "tessera-database": 1.25 }

for (const file of [
  "packages/core/dist/index.js",
  "packages/sql/dist/index.js",
  "packages/sveltekit/dist/index.js",
]) {
  if (!existsSync(join(root, file))) {
    console.error(`${file} is missing: run \`npm run build\` first.`)
    process.exit(1)
  }
}
const versions = ensureAuthjs()
const work = mkdtempSync(join(tmpdir(), "tessera-kit-bench-"))

// ---- sessions: a JWT cookie per library, and a SQLite database per library ----

const USER = {
  id: "user-ada",
  name: TOKEN.name,
  email: TOKEN.email,
  emailVerified: null,
  image: null,
}

/** A database with one user and one session; Tessera stores the token's SHA-256, Auth.js the token. */
async function sessionDatabase(library) {
  const path = join(work, `${library}.db`)
  const adapter = SqlAdapter.sqlite(path)
  await adapter.migrate()
  await adapter.createUser(USER)
  const token = randomBytes(32).toString("hex")
  const stored = library === "tessera" ? createHash("sha256").update(token).digest("hex") : token
  await adapter.createSession({
    sessionToken: stored,
    userId: USER.id,
    expires: new Date(Date.now() + 30 * 86_400_000),
  })
  await adapter.close()
  return { path, cookie: `${LIBRARIES[library].cookieName}=${token}` }
}

const sessions = {}
for (const library of Object.keys(LIBRARIES)) {
  sessions[`${library}-jwt`] = { cookie: await jwtSessionCookie(library) }
  sessions[`${library}-database`] = await sessionDatabase(library)
}

// ---- the apps ----

// What a build depends on besides its generated sources: the SvelteKit
// integrations compiled into it (the cores load from node_modules at run time).
const integrations = createHash("sha256")
for (const dir of [
  join(root, "packages/sveltekit/dist"),
  join(baselineDir, "node_modules/@auth/sveltekit/dist"),
])
  for (const file of readdirSync(dir, { recursive: true }).sort())
    if (file.endsWith(".js")) integrations.update(file).update(readFileSync(join(dir, file)))
const integrationsKey = integrations.digest("hex")

/** Builds one app with Vite (adapter-node), unless the same sources were built already. */
function appFor(name, library, options) {
  const dir = appDir(library ?? "none", `kit-${name}`)
  const files = kitAppFiles({ library, ...options })
  const key = createHash("sha256")
    .update(integrationsKey)
    .update(JSON.stringify(files))
    .digest("hex")
  const keyFile = join(dir, "build", ".bench-key")
  if (existsSync(keyFile) && readFileSync(keyFile, "utf8") === key) return dir
  writeFiles(dir, files)
  process.stderr.write(`building ${library ?? "no library"}: ${name} ...\n`)
  const result = spawnSync(
    process.execPath,
    [join(root, "node_modules/vite/bin/vite.js"), "build"],
    {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NODE_ENV: "production" },
    },
  )
  if (result.status !== 0) throw new Error(`vite build in ${dir} failed:\n${result.stderr}`)
  writeFileSync(keyFile, key)
  return dir
}

const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(AUTH_|ORIGIN$|PORT$|HOST$|NODE_OPTIONS$|BENCH_)/.test(key),
  ),
)

/** Starts `node server.js` of a built app; resolves with its URL, pid and stop(). */
function startApp(dir, env = {}, flags = []) {
  const child = spawn(process.execPath, [...flags, "server.js"], {
    cwd: dir,
    env: { ...cleanEnv, NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  return whenReady(child, /ready (http:\/\/\S+)/, { name: dir })
}

/** What the root layout returned, from SvelteKit's data endpoint. */
async function layoutData(server, cookie) {
  const response = await fetch(`${server.url}/__data.json`, { headers: { cookie } })
  const body = await response.json()
  return { data: unflatten(body.nodes[0].data), setCookie: response.headers.getSetCookie() }
}

// Auth.js answers a new `expires` on every check (its expiry rolls forward).
const comparable = (session) => JSON.stringify({ ...session, expires: typeof session?.expires })

const servers = {}
const stopAll = () => Promise.all(Object.values(servers).map((server) => server.stop()))
try {
  // A first, for each library and strategy; B gets what A's layout returned.
  const pairs = []
  for (const library of Object.keys(LIBRARIES)) {
    for (const strategy of ["jwt", "database"]) {
      const key = `${library}-${strategy}`
      const { cookie, path } = sessions[key]
      const env = path ? { BENCH_DATABASE: path } : {}
      const database = strategy === "database"
      const authDir = appFor(`${strategy}-auth`, library, { variant: "auth", database })
      servers[`${key}-A`] = await startApp(authDir, env)
      const { data, setCookie } = await layoutData(servers[`${key}-A`], cookie)
      if (data.session?.user?.name !== TOKEN.name)
        throw new Error(`${key}: locals.auth() returned ${JSON.stringify(data.session)}`)
      const constantDir = appFor(`${strategy}-constant`, library, {
        variant: "constant",
        database,
        session: data.session,
      })
      servers[`${key}-B`] = await startApp(constantDir, env)
      const constant = await layoutData(servers[`${key}-B`], cookie)
      if (comparable(constant.data.session) !== comparable(data.session))
        throw new Error(`${key}: B returned ${JSON.stringify(constant.data.session)}`)
      for (const side of ["A", "B"]) {
        const page = await (
          await fetch(servers[`${key}-${side}`].url, { headers: { cookie } })
        ).text()
        if (!page.includes(`<h1>${TOKEN.name}</h1>`) || !page.includes(TOKEN.email))
          throw new Error(`${key}-${side}: the page does not show the signed-in user`)
      }
      pairs.push({
        key,
        library,
        strategy,
        cookie,
        session: data.session,
        reissuesCookie: setCookie.length > 0,
      })
    }
  }
  // The page with no library: no hook, the same constant session.
  const bareDir = appFor("page-only", null, { variant: "constant", session: pairs[0].session })
  servers.bare = await startApp(bareDir)

  const measure = async (name, cookie, seconds) => {
    const server = servers[name]
    const before = cpuMicros(server.pid)
    const result = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: seconds,
      headers: { cookie },
    })
    const cpu = cpuMicros(server.pid) - before
    if (result.errors || result.timeouts || result.non2xx)
      throw new Error(
        `${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
      )
    return { rps: result.requests.average, cpuPerRequest: cpu / result.requests.total }
  }

  for (const name of Object.keys(servers)) {
    const pair = pairs.find((entry) => name.startsWith(entry.key))
    await measure(name, pair?.cookie ?? "", WARM_UP_SECONDS)
  }

  const runs = Object.fromEntries(Object.keys(servers).map((name) => [name, []]))
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...pairs].reverse() : pairs
    const bare = { rps: 0, cpuPerRequest: 0 }
    const add = (sum, run) => {
      sum.rps += run.rps / 2
      sum.cpuPerRequest += run.cpuPerRequest / 2
    }
    add(bare, await measure("bare", "", SECONDS))
    for (const { key, cookie } of order) {
      const sums = { A: { rps: 0, cpuPerRequest: 0 }, B: { rps: 0, cpuPerRequest: 0 } }
      for (const side of r % 2 ? ["B", "A", "A", "B"] : ["A", "B", "B", "A"])
        add(sums[side], await measure(`${key}-${side}`, cookie, SECONDS))
      runs[`${key}-A`].push(sums.A)
      runs[`${key}-B`].push(sums.B)
    }
    add(bare, await measure("bare", "", SECONDS))
    runs.bare.push(bare)
    process.stderr.write(`\rround ${r + 1}/${ROUNDS}   `)
  }
  process.stderr.write("\n")

  const perVariant = Object.fromEntries(
    Object.entries(runs).map(([name, list]) => [
      name,
      {
        rps: Math.round(median(list.map((run) => run.rps))),
        cpuMicrosPerRequest: round(median(list.map((run) => run.cpuPerRequest))),
      },
    ]),
  )
  const ratioOf = (a, b, field) =>
    round(median(runs[a].map((run, i) => run[field] / runs[b][i][field])), 3)
  const results = pairs.map(({ key, reissuesCookie }) => ({
    pair: key,
    reissuesCookieOnEveryPage: reissuesCookie,
    A: perVariant[`${key}-A`],
    B: perVariant[`${key}-B`],
    cpuRatioAB: ratioOf(`${key}-A`, `${key}-B`, "cpuPerRequest"),
    rpsRatioBA: ratioOf(`${key}-B`, `${key}-A`, "rps"),
    cpuRatioAOverPageOnly: ratioOf(`${key}-A`, "bare", "cpuPerRequest"),
    cpuRatioBOverPageOnly: ratioOf(`${key}-B`, "bare", "cpuPerRequest"),
    target: TARGETS[key] ?? null,
  }))
  const crossLibrary = Object.fromEntries(
    ["jwt", "database"].map((strategy) => [
      strategy,
      {
        cpuRatioTesseraOverAuthjsA: ratioOf(
          `tessera-${strategy}-A`,
          `authjs-${strategy}-A`,
          "cpuPerRequest",
        ),
        rpsRatioTesseraOverAuthjsA: ratioOf(`tessera-${strategy}-A`, `authjs-${strategy}-A`, "rps"),
      },
    ]),
  )

  // ---- CPU profiles (Tessera's pairs, Auth.js's JWT A), only while under load ----
  await stopAll()
  for (const name of Object.keys(servers)) delete servers[name]
  const profiles = {}
  for (const [name, library, strategy, variant] of [
    ["tessera-jwt-A", "tessera", "jwt", "auth"],
    ["tessera-jwt-B", "tessera", "jwt", "constant"],
    ["tessera-database-A", "tessera", "database", "auth"],
    ["authjs-jwt-A", "authjs", "jwt", "auth"],
  ]) {
    // Kept in bench/results/ (git-ignored), to open in Chrome DevTools.
    const file = fileURLToPath(
      new URL(`results/sveltekit-page-${name}.cpuprofile`, import.meta.url),
    )
    mkdirSync(dirname(file), { recursive: true })
    const { cookie, path } = sessions[`${library}-${strategy}`]
    servers[name] = await startApp(appDir(library, `kit-${strategy}-${variant}`), {
      BENCH_PROFILE: file,
      ...(path ? { BENCH_DATABASE: path } : {}),
    })
    await measure(name, cookie, WARM_UP_SECONDS)
    await fetch(`${servers[name].url}/__bench/profile/start`)
    await measure(name, cookie, PROFILE_SECONDS)
    await fetch(`${servers[name].url}/__bench/profile/stop`)
    // The profiler samples in wall-clock time, which a busy machine stretches,
    // and costs CPU itself: each package's share of the busy samples is applied
    // to the variant's CPU time per request measured in the rounds above.
    const cpuPerRequest = perVariant[name].cpuMicrosPerRequest
    const own = library === "tessera" ? "@tessera/core" : "@auth/core"
    const files = {
      package: own,
      marker: library === "tessera" ? "/dist/" : "/@auth/core/",
      totals: new Map(),
    }
    const totals = addProfile(JSON.parse(readFileSync(file, "utf8")), new Map(), files)
    totals.delete("(idle)")
    totals.delete("(profiler)")
    const busy = [...totals.values()].reduce((a, b) => a + b, 0)
    const perRequest = (micros) => round((micros / busy) * cpuPerRequest, 1)
    profiles[name] = {
      cpuMicrosPerRequest: cpuPerRequest,
      byPackage: [...totals]
        .sort((a, b) => b[1] - a[1])
        .map(([pkg, micros]) => ({
          package: pkg,
          share: round(micros / busy, 3),
          microsPerRequest: perRequest(micros),
        })),
      [`${own} by file`]: [...files.totals]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([path, micros]) => ({ file: path, microsPerRequest: perRequest(micros) })),
    }
    await servers[name].stop()
    delete servers[name]
  }
  const perRequest = (name, pkg) =>
    profiles[name].byPackage.find((entry) => entry.package === pkg)?.microsPerRequest ?? 0
  const packages = new Set(
    ["tessera-jwt-A", "tessera-jwt-B"].flatMap((name) =>
      profiles[name].byPackage.map((e) => e.package),
    ),
  )
  const profileDifference = [...packages]
    .map((pkg) => ({
      package: pkg,
      A: perRequest("tessera-jwt-A", pkg),
      B: perRequest("tessera-jwt-B", pkg),
      difference: round(perRequest("tessera-jwt-A", pkg) - perRequest("tessera-jwt-B", pkg), 1),
    }))
    .sort((a, b) => b.difference - a.difference)

  writeResult("sveltekit-page", {
    rounds: ROUNDS,
    secondsPerRun: SECONDS,
    connections: CONNECTIONS,
    versions,
    pageOnly: perVariant.bare,
    pairs: results,
    crossLibrary,
    profiles,
    profileDifference,
    runs,
  })

  console.log(
    `Signed-in SvelteKit page, ${ROUNDS} rounds, ABBA per pair, ${SECONDS} s runs, ${CONNECTIONS} connections (medians):`,
  )
  console.log(
    "pair                A: req/s  CPU µs/req   B: req/s  CPU µs/req   CPU A/B (target)   req/s B/A   A / page only",
  )
  for (const r of results) {
    console.log(
      `${r.pair.padEnd(18)} ${String(r.A.rps).padStart(9)} ${String(r.A.cpuMicrosPerRequest).padStart(11)} ${String(r.B.rps).padStart(10)} ${String(r.B.cpuMicrosPerRequest).padStart(11)}   ${`${r.cpuRatioAB}${r.target ? ` (<= ${r.target})` : ""}`.padEnd(16)} ${String(r.rpsRatioBA).padStart(9)}   ${String(r.cpuRatioAOverPageOnly).padStart(13)}`,
    )
  }
  console.log(
    `page only (no library, no hook): ${perVariant.bare.rps} req/s, ${perVariant.bare.cpuMicrosPerRequest} µs CPU/request`,
  )
  for (const [strategy, row] of Object.entries(crossLibrary))
    console.log(
      `Tessera / Auth.js, variant A, ${strategy}: CPU ${row.cpuRatioTesseraOverAuthjsA}, req/s ${row.rpsRatioTesseraOverAuthjsA}`,
    )
  console.log(
    `\nCPU profile of Tessera's JWT pair, µs per request by package (${PROFILE_SECONDS} s under load):`,
  )
  console.log(`${"package".padEnd(72)} A         B     A - B`)
  for (const row of profileDifference.filter((row) => row.A + row.B >= 1)) {
    console.log(
      `${row.package.padEnd(66)} ${String(row.A).padStart(7)} ${String(row.B).padStart(9)} ${String(row.difference).padStart(9)}`,
    )
  }
  for (const name of ["tessera-jwt-A", "tessera-database-A"]) {
    console.log(`\n${name}, @tessera/core by file (µs per request):`)
    for (const row of profiles[name]["@tessera/core by file"])
      console.log(`  ${row.file.padEnd(64)} ${String(row.microsPerRequest).padStart(7)}`)
  }
  console.log("\ntessera-database-A, µs per request by package:")
  for (const row of profiles["tessera-database-A"].byPackage.filter((r) => r.microsPerRequest >= 1))
    console.log(`${row.package.padEnd(66)} ${String(row.microsPerRequest).padStart(7)}`)
  console.log("\nAuth.js's A (JWT), µs per request by package:")
  for (const row of profiles["authjs-jwt-A"].byPackage.filter((row) => row.microsPerRequest >= 1))
    console.log(`${row.package.padEnd(66)} ${String(row.microsPerRequest).padStart(7)}`)
  const missed = results.filter((r) => r.target && r.cpuRatioAB > r.target)
  if (missed.length) {
    console.error(
      `\nMissed: ${missed.map((r) => `${r.pair} ${r.cpuRatioAB} > ${r.target}`).join(", ")}`,
    )
    process.exitCode = 1
  }
} finally {
  await stopAll()
  rmSync(work, { recursive: true, force: true })
}
