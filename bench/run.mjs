// Runs the benchmarks one after another (all of them, or those named) and
// sums up which met their targets. Each prints its own figures and writes
// bench/results/<name>.json; see bench/README.md for what each measures.
//
// Run: npm run bench                      (builds first, then everything: ~15 min)
//      node bench/run.mjs cold-start bundle-size   (after `npm run build`)
// Exits 1 when any benchmark failed or missed its target; the others still run.
import { spawnSync } from "node:child_process"
import { loadavg } from "node:os"
import { fileURLToPath } from "node:url"

const BENCHMARKS = [
  "session-check", // warm session check in process, against a floor (target <= 1.2)
  "session-revocation", // JWT check with revocation on vs off (issue 12, target <= 1.2)
  "cold-start", // fresh process: import + first check, against Auth.js (target <= 0.5)
  "bundle-size", // esbuild bundle of a minimal app, against Auth.js (target <= 0.6)
  "sveltekit-page", // signed-in SvelteKit page, A/B and against Auth.js (<= 1.10, <= 1.25)
  "pg-sessions", // PostgreSQL: round trips per check, p50/p99 at 64 concurrent checks
  "db-session", // getSessionAndUser at 1k and 1M sessions, SQLite and PostgreSQL
  "sqlite-check-cost", // a database session check on SQLite, layer by layer (information)
  "demo-auth", // the demo's hook over HTTP (target: < 5 % on /health)
]

const names = process.argv.slice(2)
const unknown = names.filter((name) => !BENCHMARKS.includes(name))
if (unknown.length) {
  console.error(`Unknown: ${unknown.join(", ")}. Benchmarks: ${BENCHMARKS.join(", ")}`)
  process.exit(2)
}
const outcomes = []
for (const name of names.length ? names : BENCHMARKS) {
  const load = loadavg()[0].toFixed(2)
  console.log(`\n=== ${name} (load average ${load}) ===`)
  const started = performance.now()
  const { status } = spawnSync(
    process.execPath,
    [fileURLToPath(new URL(`${name}.mjs`, import.meta.url))],
    { stdio: "inherit" },
  )
  outcomes.push({ name, status, seconds: Math.round((performance.now() - started) / 1000) })
}
console.log("\n=== summary ===")
for (const { name, status, seconds } of outcomes)
  console.log(`${name.padEnd(16)} ${status === 0 ? "ok" : `exit ${status}`} (${seconds} s)`)
if (outcomes.some(({ status }) => status !== 0)) process.exitCode = 1
