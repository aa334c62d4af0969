// JWT session check with revocation on (session records in SQLite, the default
// session.revalidateAge of 60 s) against the same check without it (no adapter),
// in process, measured in one run. Target: on / off <= 1.2 (issue 12).
//
// Both sides are `Auth()` answering GET /auth/session with a cookie made by a
// real sign-in. Each side is a browser: it sends its cookie and keeps the one a
// response sets, so a revalidation (one UPDATE ... RETURNING, one encrypt) is paid
// whenever `revalidateAge` runs out, as in production. Rounds alternate which side
// goes first; the figure is the median of the per-round ratios (see README.md).
//
// For information (no target), a third side with revalidateAge: 0 asks SQLite on
// every check: what revocation costs without the cookie's cached answer.
//
// Run: npm run build && node bench/session-revocation.mjs [rounds] [iterations] [min seconds]
// The result is printed and written to bench/results/session-revocation.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const core = new URL("../packages/core/dist/", import.meta.url).href
const { Auth } = await import(new URL("index.js", core).href)
const { default: Credentials } = await import(new URL("providers/credentials.js", core).href)
const { SqlAdapter } = await import(new URL("../packages/sql/dist/index.js", import.meta.url).href)

const ROUNDS = Number(process.argv[2] ?? 21)
// Rounds go on until the run has lasted this long (seconds), so that the "on" side's
// revalidateAge (60 s) runs out during it and its revalidations are in the figures.
const MIN_SECONDS = Number(process.argv[4] ?? 65)
const ITERATIONS = Number(process.argv[3] ?? 2000)
const TARGET = 1.2
const ORIGIN = "http://localhost:3000"
const secret = "bench-secret-bench-secret-bench-secret-0123456789"
const user = {
  id: "7d3c1a2e-5f0b-4c8e-9a41-2b6f3e8d9c10",
  name: "Ada Lovelace",
  email: "ada@example.com",
}

const dir = mkdtempSync(join(tmpdir(), "tessera-bench-revocation-"))
const adapter = SqlAdapter.sqlite(join(dir, "auth.db"))
await adapter.migrate()
await adapter.createUser({ ...user, emailVerified: null, image: null })

const provider = Credentials({ credentials: { username: {} }, authorize: () => ({ ...user }) })
const base = { secret, url: `${ORIGIN}/auth`, providers: [provider] }
const configs = {
  off: { ...base },
  on: { ...base, adapter, session: { strategy: "jwt" } },
  always: { ...base, adapter, session: { strategy: "jwt", revalidateAge: 0 } },
}

/** A browser signed in through `Auth()`: its cookie jar is the session cookie. */
async function browser(config) {
  const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const { csrfToken } = await csrf.json()
  const csrfCookie = csrf.headers.getSetCookie()[0].split(";")[0]
  const signIn = await Auth(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: new URLSearchParams({ username: "ada", csrfToken }),
    }),
    config,
  )
  let cookie = signIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("tessera.session-token="))
    .split(";")[0]
  let reissued = 0
  return {
    get reissued() {
      return reissued
    },
    async check() {
      const response = await Auth(
        new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }),
        config,
      )
      const set = response.headers.getSetCookie()
      if (set.length) {
        reissued++
        cookie = set.find((c) => c.startsWith("tessera.session-token=")).split(";")[0]
      }
      return response
    },
  }
}

const sides = {}
for (const [name, config] of Object.entries(configs)) sides[name] = await browser(config)

// All three answer the same session.
{
  const bodies = await Promise.all(Object.values(sides).map(async (s) => (await s.check()).json()))
  const [first, ...rest] = bodies.map((b) => JSON.stringify({ user: b.user }))
  if (rest.some((b) => b !== first) || !bodies[0].user)
    throw new Error(
      `The sides answer differently: ${bodies.map((b) => JSON.stringify(b)).join(" / ")}`,
    )
}

async function time(side, n) {
  const start = process.hrtime.bigint()
  for (let i = 0; i < n; i++) await side.check()
  return Number(process.hrtime.bigint() - start) / 1000 / n
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const load = { start: loadavg()[0] }

// Warm-up: JIT, keys, resolved configurations, prepared statements.
for (const side of Object.values(sides)) await time(side, ITERATIONS)

/**
 * Rounds of `off` against `other`, alternating which goes first; per-round ratios.
 * Runs at least `rounds` rounds and at least `minSeconds`.
 */
async function compare(other, rounds, minSeconds) {
  const started = Date.now()
  const micros = { off: [], other: [] }
  const ratios = []
  for (let round = 0; round < rounds || Date.now() - started < minSeconds * 1000; round++) {
    let off, timed
    if (round % 2 === 0) {
      off = await time(sides.off, ITERATIONS)
      timed = await time(sides[other], ITERATIONS)
    } else {
      timed = await time(sides[other], ITERATIONS)
      off = await time(sides.off, ITERATIONS)
    }
    micros.off.push(off)
    micros.other.push(timed)
    ratios.push(timed / off)
  }
  return { micros, ratios, seconds: Math.round((Date.now() - started) / 1000) }
}

// The target: revocation on (default revalidateAge) against off, long enough for the
// "on" side's cookie to be revalidated during the timed rounds.
const on = await compare("on", ROUNDS, MIN_SECONDS)
// For information: a check that asks SQLite every time (revalidateAge: 0).
const always = await compare("always", ROUNDS, 0)
load.end = loadavg()[0]

const result = {
  node: process.version,
  rounds: on.ratios.length,
  iterations: ITERATIONS,
  seconds: on.seconds,
  offMedianMicros: +median(on.micros.off).toFixed(1),
  onMedianMicros: +median(on.micros.other).toFixed(1),
  medianRatio: +median(on.ratios).toFixed(3),
  alwaysRounds: always.ratios.length,
  alwaysOffMedianMicros: +median(always.micros.off).toFixed(1),
  alwaysMedianMicros: +median(always.micros.other).toFixed(1),
  alwaysMedianRatio: +median(always.ratios).toFixed(3),
  // How often the "on" side's cookie was re-issued (a revalidation) during the whole run.
  onRevalidations: sides.on.reissued,
  target: TARGET,
  load: { start: +load.start.toFixed(2), end: +load.end.toFixed(2) },
}
console.log(JSON.stringify(result, null, 2))
const out = fileURLToPath(new URL("./results/", import.meta.url))
mkdirSync(out, { recursive: true })
writeFileSync(
  `${out}session-revocation.json`,
  `${JSON.stringify({ ...result, date: new Date().toISOString() }, null, 2)}\n`,
)
await adapter.close()
rmSync(dir, { recursive: true, force: true })
if (result.medianRatio > TARGET) {
  console.error(`median ratio ${result.medianRatio} exceeds ${TARGET}`)
  process.exitCode = 1
}
