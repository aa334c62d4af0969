// The SvelteKit hook's own cost on a request that never calls `locals.auth()`,
// measured in process: the built `handle` of @tessera/sveltekit around a trivial
// `resolve`, against that `resolve` alone, in interleaved rounds (median).
//
// The HTTP benchmark (demo-auth.mjs) compares two server processes, whose
// difference on a ~170 µs request is within process-to-process noise on a busy
// machine; this isolates the hook itself. The figure is then related to the
// server CPU time per `/health` request from the last demo-auth run, if any.
//
// Run: npm run build && node bench/sveltekit-hook.mjs [rounds] [iterations]
import { existsSync, readFileSync, mkdirSync, writeFileSync } from "node:fs"
import { SvelteKitAuth, setKitRuntime } from "../packages/sveltekit/dist/index.js"
import Credentials from "../packages/core/dist/providers/credentials.js"

const ROUNDS = Number(process.argv[2] ?? 11)
const ITERATIONS = Number(process.argv[3] ?? 50_000)

const env = { AUTH_SECRET: "bench-secret-".padEnd(40, "x"), AUTH_TRUST_HOST: "true" }
setKitRuntime(() => ({ building: false, env }))
const { handle } = SvelteKitAuth({ providers: [Credentials({ authorize: () => null })] })

const url = new URL("http://localhost:3000/health")
const request = new Request(url)
const cookies = { get() {}, getAll: () => [], set() {}, delete() {} }
const resolve = async () => new Response("ok")
const event = () => ({ url, request, cookies, locals: {} })

async function perCall(fn) {
  const start = performance.now()
  for (let i = 0; i < ITERATIONS; i++) await fn()
  return ((performance.now() - start) * 1000) / ITERATIONS
}
const withHook = () => handle({ event: event(), resolve })
const without = () => resolve(event())

await perCall(withHook) // warm up both paths
await perCall(without)
const costs = []
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which side goes first, so drift in machine load hits both alike.
  const first = round % 2 ? withHook : without
  const second = first === withHook ? without : withHook
  const a = await perCall(first)
  const b = await perCall(second)
  costs.push(first === withHook ? a - b : b - a)
}
costs.sort((x, y) => x - y)
const median = costs[Math.floor(costs.length / 2)]

let share
const demo = new URL("./results/demo-auth.json", import.meta.url)
if (existsSync(demo)) {
  const cpu = JSON.parse(readFileSync(demo, "utf8"))?.health?.cpuMicrosPerRequestWithoutHook
  if (typeof cpu === "number") share = median / cpu
}
const result = {
  benchmark: "sveltekit-hook",
  node: process.version,
  rounds: ROUNDS,
  iterations: ITERATIONS,
  hookMicros: median,
  shareOfHealthRequest: share,
}
mkdirSync(new URL("./results/", import.meta.url), { recursive: true })
writeFileSync(
  new URL("./results/sveltekit-hook.json", import.meta.url),
  JSON.stringify(result, null, 2),
)
console.log(
  `SvelteKit hook on a route that never calls locals.auth(): ${median.toFixed(2)} µs per request (median of ${ROUNDS} rounds)`,
)
if (share !== undefined)
  console.log(
    `= ${(share * 100).toFixed(1)} % of the server CPU time of a /health request (budget 5 %)`,
  )
