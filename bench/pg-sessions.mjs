// Database sessions on PostgreSQL: what one session check (`Auth()` answering
// GET /auth/session with a valid database-session cookie, in process) sends to
// the server, and its latency with 64 checks in flight at once.
//
// 1. Round trips: every statement the pg driver sends is counted (a wrapper on
//    pg's Client#query, the one call Kysely makes per statement; with bound
//    parameters pg pipelines parse/bind/execute/sync, so one call is one round
//    trip), and so are pool checkouts. Target: one round trip per check.
// 2. Latency: 64 concurrent callers, each running checks back to back, with
//    the pool @tessera/sql opens by default (packages/sql/src/dialects.ts:
//    DEFAULT_POOL_MAX, 64 connections) and with pg's own default (`max: 10`,
//    what @tessera/sql used before), in alternating rounds; p50 and p99 of
//    every check, and how long checks waited for a connection (timed around
//    pg's Pool#connect). One caller alone gives the floor.
//
// No Auth.js here: its database sessions need an adapter of its own, and what
// is measured is Tessera's traffic with the database. The server is a
// throwaway one from startPostgres() (@tessera/testing), or DATABASE_URL.
//
// Run: npm run build && node bench/pg-sessions.mjs [rounds=5] [checks per caller=100]
// Writes bench/results/pg-sessions.json; exits 1 when a check takes more than
// one round trip, or when with the default pool 64 checks still wait for a
// connection (a median wait above 1 ms).
import { createHash, randomBytes } from "node:crypto"
import pg from "pg"
import { Auth } from "../packages/core/dist/index.js"
import { SqlAdapter } from "../packages/sql/dist/index.js"
import { DEFAULT_POOL_MAX } from "../packages/sql/dist/dialects.js"
import { startPostgres } from "../packages/testing/dist/postgres.js"
import { SECRET, TOKEN } from "./lib/apps.mjs"
import { median, percentile, round, writeResult } from "./lib/stats.mjs"

const ROUNDS = Number(process.argv[2] ?? 5)
const CHECKS_PER_CALLER = Number(process.argv[3] ?? 100)
const CONCURRENCY = 64
// `default`: what SqlAdapter.postgres opens when the config says nothing (64);
// `pg`: pg's own default, 10 connections.
const POOLS = { default: {}, pg: { max: 10 } }
const MAX_WAIT_P50_MICROS = 1000

// Every statement and every checkout, counted where the driver does them.
const counts = { queries: 0, checkouts: 0, waitMicros: [] }
const query = pg.Client.prototype.query
pg.Client.prototype.query = function (...args) {
  counts.queries++
  return query.apply(this, args)
}
const connect = pg.Pool.prototype.connect
pg.Pool.prototype.connect = function (...args) {
  counts.checkouts++
  const started = process.hrtime.bigint()
  const done = connect.apply(this, args)
  done?.then?.(() => counts.waitMicros.push(Number(process.hrtime.bigint() - started) / 1000))
  return done
}

const server = await startPostgres()
const admin = new pg.Client(server.url)
await admin.connect()
const schema = `bench_${randomBytes(4).toString("hex")}`
await admin.query(`create schema ${schema}`)

const adapters = {}
const configs = {}
try {
  for (const [name, pool] of Object.entries(POOLS)) {
    adapters[name] = SqlAdapter.postgres({
      connectionString: server.url,
      options: `-c search_path=${schema}`,
      ...pool,
    })
    configs[name] = {
      secret: SECRET,
      trustHost: true,
      adapter: adapters[name],
      session: { strategy: "database" },
      providers: [],
    }
  }
  await adapters.default.migrate()
  const user = {
    id: "user-ada",
    name: TOKEN.name,
    email: TOKEN.email,
    emailVerified: null,
    image: null,
  }
  await adapters.default.createUser(user)
  const token = randomBytes(32).toString("hex")
  await adapters.default.createSession({
    sessionToken: createHash("sha256").update(token).digest("hex"),
    userId: user.id,
    expires: new Date(Date.now() + 30 * 86_400_000),
  })
  const cookie = `tessera.session-token=${token}`

  async function check(config) {
    const response = await Auth(
      new Request("http://localhost:3000/auth/session", { headers: { cookie } }),
      config,
    )
    const body = await response.json()
    if (response.status !== 200 || body?.user?.email !== TOKEN.email)
      throw new Error(`session check answered ${response.status} ${JSON.stringify(body)}`)
    if (response.headers.get("set-cookie")) throw new Error("a plain check re-issued the cookie")
  }

  // Round trips: warm everything up (config, pool, prepared code paths), then count.
  for (const config of Object.values(configs)) for (let i = 0; i < 20; i++) await check(config)
  counts.queries = counts.checkouts = 0
  const COUNTED = 200
  for (let i = 0; i < COUNTED; i++) await check(configs.default)
  const roundTrips = {
    statementsPerCheck: counts.queries / COUNTED,
    poolCheckoutsPerCheck: counts.checkouts / COUNTED,
  }

  /** `callers` concurrent loops of `perCaller` checks: latencies (µs), checkout waits, checks/s. */
  async function load(config, callers, perCaller) {
    counts.waitMicros = []
    const latencies = []
    const started = process.hrtime.bigint()
    await Promise.all(
      Array.from({ length: callers }, async () => {
        for (let i = 0; i < perCaller; i++) {
          const t0 = process.hrtime.bigint()
          await check(config)
          latencies.push(Number(process.hrtime.bigint() - t0) / 1000)
        }
      }),
    )
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    return {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      waitP50: percentile(counts.waitMicros, 50),
      waitP99: percentile(counts.waitMicros, 99),
      checksPerSecond: latencies.length / seconds,
    }
  }

  const runs = { single: [], default: [], pg: [] }
  for (const name of Object.keys(POOLS)) await load(configs[name], CONCURRENCY, 20) // warm the pools
  for (let r = 0; r < ROUNDS; r++) {
    runs.single.push(await load(configs.default, 1, CHECKS_PER_CALLER * 4))
    for (const name of r % 2 ? ["pg", "default"] : ["default", "pg"])
      runs[name].push(await load(configs[name], CONCURRENCY, CHECKS_PER_CALLER))
    process.stderr.write(`\rround ${r + 1}/${ROUNDS}   `)
  }
  process.stderr.write("\n")

  const summarize = (list) =>
    Object.fromEntries(
      Object.keys(list[0]).map((field) => [field, round(median(list.map((run) => run[field])))]),
    )
  const latency = {
    oneCaller: summarize(runs.single),
    [`${CONCURRENCY} callers, @tessera/sql default pool (max ${DEFAULT_POOL_MAX})`]: summarize(
      runs.default,
    ),
    [`${CONCURRENCY} callers, pg's default pool (max 10)`]: summarize(runs.pg),
  }
  const poolSize = Object.fromEntries(
    Object.entries(POOLS).map(([name, pool]) => [name, pool.max ?? DEFAULT_POOL_MAX]),
  )
  writeResult("pg-sessions", {
    rounds: ROUNDS,
    checksPerCaller: CHECKS_PER_CALLER,
    concurrency: CONCURRENCY,
    roundTrips,
    poolSize,
    latencyMicros: latency,
    runs,
  })

  console.log(
    `Database session check on PostgreSQL (Auth() in process; loopback TCP), ${ROUNDS} rounds (medians):`,
  )
  console.log(
    `round trips per check: ${roundTrips.statementsPerCheck} statement(s), ${roundTrips.poolCheckoutsPerCheck} pool checkout(s)`,
  )
  console.log(
    "                                     p50 µs    p99 µs    max µs   checkout wait p50/p99 µs   checks/s",
  )
  for (const [label, row] of Object.entries(latency)) {
    console.log(
      `${label.padEnd(36)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(9)} ${String(row.max).padStart(9)}   ${`${row.waitP50} / ${row.waitP99}`.padStart(24)} ${String(Math.round(row.checksPerSecond)).padStart(10)}`,
    )
  }
  const defaultWait = latency[Object.keys(latency)[1]].waitP50
  if (defaultWait > MAX_WAIT_P50_MICROS) {
    console.error(`With the default pool, checks wait ${defaultWait} µs for a connection (p50).`)
    process.exitCode = 1
  }
  if (roundTrips.statementsPerCheck > 1) {
    console.error(`A check sends ${roundTrips.statementsPerCheck} statements; target 1.`)
    process.exitCode = 1
  }
} finally {
  for (const adapter of Object.values(adapters)) await adapter.close().catch(() => {})
  await admin.query(`drop schema if exists ${schema} cascade`).catch(() => {})
  await admin.end().catch(() => {})
  await server.stop()
}
