// The cost of Tessera's SvelteKit hook in the built demo, over HTTP on loopback.
//
// Two processes of the same build (`apps/demo/server.js`): one as shipped, one
// started with DEMO_AUTH_HOOK=off, which builds the app's `handle` without
// Tessera's hook (`locals.auth()` then resolves to null without reading
// anything). Both get the same session cookie of a signed-in demo account.
// autocannon measures, in interleaved rounds so that machine noise hits both
// alike:
//
//   /        a page whose root layout calls `locals.auth()`: with the hook it
//            reads the database session (a valid one), without it finds nobody;
//   /health  a route that never calls `locals.auth()`: the hook's own cost,
//            which should stay under 5 %.
//
// Each round measures every route in the order hook, no hook, no hook, hook
// (ABBA), which cancels a load that drifts steadily during the round; runs
// are short so that the many rounds hit the same spells of noise. Figures are
// medians over rounds of requests per second and of the per-round ratio
// hook / no hook.
//
// On a shared machine requests per second swing with other processes' load.
// So the server's own CPU time per request is measured too (Linux:
// /proc/<pid>/stat), which a busy neighbour barely moves: it is the steadier
// figure for a cost of a few per cent. Both are printed and written to
// bench/results/demo-auth.json.
//
// Run: npm run build && node bench/demo-auth.mjs [rounds] [seconds per run]
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import { whenReady } from "./lib/server.mjs"
import { cpuMicros, median } from "./lib/stats.mjs"

const ROUNDS = Number(process.argv[2] ?? 8)
const SECONDS = Number(process.argv[3] ?? 1)
const CONNECTIONS = 10
const BUDGET = 0.05

const demoDir = fileURLToPath(new URL("../apps/demo/", import.meta.url))
if (!existsSync(join(demoDir, "build", "handler.js"))) {
  console.error("apps/demo is not built: run `npm run build` first.")
  process.exit(1)
}

/** Starts `server.js` on a free port with its own data folder; resolves once it is ready. */
function startDemo(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "tessera-bench-"))
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !/^(AUTH_|DEMO_|EMAIL_|ORIGIN$|PORT$|HOST$)/.test(key),
    ),
  )
  const child = spawn(process.execPath, ["server.js"], {
    cwd: demoDir,
    env: { ...clean, PORT: "0", IDP_PORT: "0", DEMO_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  return whenReady(child, /Tessera demo ready on (http:\/\/\S+)/, {
    name: "The demo",
    timeout: 60_000,
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  })
}

/** Signs in with a demo account through the app's own form action; returns the cookie header. */
async function signIn(url) {
  const response = await fetch(`${url}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: {
      origin: url,
      accept: "text/html",
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({
      providerId: "credentials",
      email: "alice@example.test",
      password: "wonderland-42",
    }),
  })
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .filter((pair) => /session-token=./.test(pair))
    .join("; ")
  if (response.status !== 303 || !cookie) throw new Error(`Sign-in failed: HTTP ${response.status}`)
  return cookie
}

/** One autocannon run: requests per second, and the server's CPU microseconds per request. */
async function measure(server, path, cookie, seconds) {
  const url = server.url + path
  const cpuBefore = cpuMicros(server.pid)
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { cookie },
  })
  const cpu = cpuMicros(server.pid) - cpuBefore
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`,
    )
  }
  return { rps: result.requests.average, cpuPerRequest: cpu / result.requests.total }
}

/** A fresh pair of servers, with and without the hook, for one route's measurement. */
async function startPair() {
  const started = await Promise.allSettled([startDemo(), startDemo({ DEMO_AUTH_HOOK: "off" })])
  const failed = started.find((outcome) => outcome.status === "rejected")
  if (failed) {
    await Promise.all(
      started
        .filter((outcome) => outcome.status === "fulfilled")
        .map((outcome) => outcome.value.stop()),
    )
    throw failed.reason
  }
  const [hook, noHook] = started.map((outcome) => outcome.value)
  return { hook, noHook, stop: () => Promise.all([hook.stop(), noHook.stop()]) }
}

/**
 * ABBA rounds of one route on its own pair of servers. Each route gets fresh
 * processes: when `/` (decryption, a database query, much garbage) ran on the
 * same server, the collector's debt from it landed in the `/health` rounds of the
 * hook's server only, and was counted as the hook's cost.
 */
async function compareRoute(path) {
  const pair = await startPair()
  try {
    const cookie = await signIn(pair.hook.url)
    // The page must really see the session with the hook, and nobody without it.
    const home = async (server) => (await fetch(server.url, { headers: { cookie } })).text()
    if (!(await home(pair.hook)).includes("Welcome, Alice Example"))
      throw new Error("The session cookie is not valid")
    if (!(await home(pair.noHook)).includes("You are not signed in"))
      throw new Error("DEMO_AUTH_HOOK=off still signs in")
    for (const variant of ["hook", "noHook"]) await measure(pair[variant], path, cookie, 2) // warm-up
    const runs = { hook: [], noHook: [] }
    for (let round = 0; round < ROUNDS; round++) {
      const sums = { hook: { rps: 0, cpuPerRequest: 0 }, noHook: { rps: 0, cpuPerRequest: 0 } }
      for (const variant of ["hook", "noHook", "noHook", "hook"]) {
        const run = await measure(pair[variant], path, cookie, SECONDS)
        sums[variant].rps += run.rps / 2
        sums[variant].cpuPerRequest += run.cpuPerRequest / 2
      }
      for (const variant of Object.keys(sums)) runs[variant].push(sums[variant])
      process.stderr.write(`\r${path}: round ${round + 1}/${ROUNDS}   `)
    }
    process.stderr.write("\n")
    return runs
  } finally {
    await pair.stop()
  }
}

{
  const routes = { page: "/", health: "/health" }
  const runs = { health: await compareRoute(routes.health), page: await compareRoute(routes.page) }

  const summary = {}
  for (const [route, path] of Object.entries(routes)) {
    const { hook, noHook } = runs[route]
    const rpsRatio = median(hook.map((run, i) => run.rps / noHook[i].rps))
    const cpuRatio = median(hook.map((run, i) => run.cpuPerRequest / noHook[i].cpuPerRequest))
    summary[route] = {
      path,
      rpsWithHook: Math.round(median(hook.map((run) => run.rps))),
      rpsWithoutHook: Math.round(median(noHook.map((run) => run.rps))),
      /** 1 - (req/s with the hook) / (req/s without), median of the rounds. */
      throughputCost: Number((1 - rpsRatio).toFixed(3)),
      cpuMicrosPerRequestWithHook: Number(median(hook.map((run) => run.cpuPerRequest)).toFixed(1)),
      cpuMicrosPerRequestWithoutHook: Number(
        median(noHook.map((run) => run.cpuPerRequest)).toFixed(1),
      ),
      /** (CPU per request with the hook) / (without) - 1, median of the rounds. */
      cpuCost: Number((cpuRatio - 1).toFixed(3)),
    }
  }
  const { health, page } = summary
  const withinBudget = health.cpuCost < BUDGET && health.throughputCost < BUDGET
  const result = {
    benchmark: "demo-auth",
    date: new Date().toISOString(),
    node: process.version,
    rounds: ROUNDS,
    secondsPerRun: SECONDS,
    connections: CONNECTIONS,
    page,
    health,
    budget: { route: "/health", maxCost: BUDGET, withinBudget },
    runs,
  }

  const pct = (x) => `${(x * 100).toFixed(1)} %`
  console.log(
    `Demo over HTTP, ${ROUNDS} ABBA rounds of ${SECONDS} s runs, ${CONNECTIONS} connections (medians):`,
  )
  console.log(
    "                                        req/s with / without hook   cost   |  server CPU µs/req with / without   cost",
  )
  for (const [label, row] of [
    ["/        (locals.auth(), valid session)", page],
    ["/health  (never calls locals.auth())   ", health],
  ]) {
    console.log(
      `${label} ${String(row.rpsWithHook).padStart(7)} / ${String(row.rpsWithoutHook).padEnd(7)}       ${pct(row.throughputCost).padStart(7)} |  ${String(row.cpuMicrosPerRequestWithHook).padStart(8)} / ${String(row.cpuMicrosPerRequestWithoutHook).padEnd(8)}        ${pct(row.cpuCost).padStart(7)}`,
    )
  }
  console.log(
    `Hook's cost on /health: budget ${pct(BUDGET)}, ${withinBudget ? "within it" : "OVER it"}.`,
  )
  mkdirSync(new URL("results/", import.meta.url), { recursive: true })
  writeFileSync(
    new URL("results/demo-auth.json", import.meta.url),
    `${JSON.stringify(result, null, 2)}\n`,
  )
}
